/** True for a PostgreSQL URL (`postgres://…` or `postgresql://…`); anything else is a SQLite file. */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/**
 * The key database as messages name it: a file as it is, a URL with its password masked.
 *
 * @example
 * shownDatabase('postgres://copysim:secret@db:5432/copysim'); // "postgres://copysim:***@db:5432/copysim"
 */
export function shownDatabase(db: string): string {
  if (!isPostgresUrl(db)) return db;
  try {
    const url = new URL(db);
    if (url.password === '') return db;
    url.password = '***';
    return url.toString();
  } catch {
    return db.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}
