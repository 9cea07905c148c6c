import { describe, expect, it } from 'vitest';
import { postgresTarget } from '../../src/server/ledger/postgres-url.js';
import { HAS_POSTGRES, postgresCluster, testLedger, usePostgres } from './support/ledgers.js';

usePostgres();

describe('PostgreSQL URLs', () => {
  it('read a Unix socket as libpq does: a host parameter or a percent-encoded host that is a directory', () => {
    expect(postgresTarget('postgres://copysim@/copysim?host=/run/postgresql')).toEqual({
      url: 'postgres://copysim@localhost/copysim',
      socket: '/run/postgresql/.s.PGSQL.5432',
    });
    expect(postgresTarget('postgresql://u:p%40ss@/db?host=%2Ftmp%2Fpg%2F&port=5433&sslmode=disable')).toEqual({
      url: 'postgresql://u:p%40ss@localhost/db?sslmode=disable',
      socket: '/tmp/pg/.s.PGSQL.5433',
    });
    expect(postgresTarget('postgres://copysim@%2Fvar%2Frun:6000/copysim')).toEqual({
      url: 'postgres://copysim@localhost/copysim',
      socket: '/var/run/.s.PGSQL.6000',
    });
  });

  it('leave a TCP address as it is', () => {
    for (const url of [
      'postgres://copysim:secret@db.internal:5432/copysim',
      'postgres://127.0.0.1/x?sslmode=require',
    ]) {
      expect(postgresTarget(url)).toEqual({ url, socket: undefined });
    }
  });

  it.skipIf(!HAS_POSTGRES)('reach the database through its socket', async () => {
    const cluster = await postgresCluster();
    cluster.createDatabase('through_socket');
    const ledger = await testLedger(cluster.socketUrl('through_socket'));
    try {
      const { record } = await ledger.create({ credits: 3 });
      expect(await ledger.chargeUnheld(record.id, 1, 'deals')).toEqual({ ok: true, remaining: 2 });
    } finally {
      await ledger.close();
    }
  });
});
