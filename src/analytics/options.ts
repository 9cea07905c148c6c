import { z } from 'zod';
import { formatPath, InputError } from '../model/errors.js';
import { resolveEngineOptions, type EngineOptions, type EngineOptionsInput } from '../model/options.js';

/**
 * The copy settings of the follower behind every `following` value: the simulator request's
 * settings (interface 4.1) without wallets, network and dates. `close_all` and
 * `inactivity_time_fix` are always off, so that each follower deal lives exactly as long as the
 * wallet deal it copies (see docs/analytics.md).
 */
export const CopySettingsSchema = z.strictObject({
  buy_percentage: z.number().int().gt(0).default(100),
  max_buy_amount: z.number().gt(0).default(1000),
  max_position_amount: z.number().gt(0).default(5000),
  priority_fee: z.number().gte(0).default(0),
  bribe: z.number().gte(0).default(0),
  max_dupe_buy_times: z.number().int().gte(0).default(3),
  include_bot_fees: z.boolean().default(true),
});
/** Copy settings with every default filled in. */
export type CopySettings = z.output<typeof CopySettingsSchema>;
/** Copy settings as given: any name may be left out. */
export type CopySettingsInput = z.input<typeof CopySettingsSchema>;

/** The service's default copy settings. */
export const DEFAULT_COPY_SETTINGS: CopySettings = Object.freeze(CopySettingsSchema.parse({}));

/** Options of {@link buildAnalyticsIndex}. */
export interface AnalyticsOptions {
  /** The analytics' "now", seconds; default: the time of the tape's last swap (0 for no swaps). */
  readonly now?: number;
  /** The follower's copy settings; missing names take {@link DEFAULT_COPY_SETTINGS}. */
  readonly copySettings?: CopySettingsInput;
  /** Engine options (model 1.3) of the follower's simulation. */
  readonly engineOptions?: EngineOptionsInput;
}

const NowSchema = z.number().int('expected whole seconds').gte(0).lte(Number.MAX_SAFE_INTEGER);

/** Analytics options validated, defaults filled in (except `now`, which needs the tape). */
export interface ResolvedAnalyticsOptions {
  readonly now: number | undefined;
  readonly copySettings: CopySettings;
  readonly engineOptionsInput: EngineOptionsInput;
  readonly engineOptions: EngineOptions;
}

function optionsError(name: string, issues: readonly z.core.$ZodIssue[]): InputError {
  const issue = issues[0]!;
  const path = [name, formatPath(issue.path)].filter((p) => p !== '').join('.');
  return new InputError(`analytics options: ${path}: ${issue.message}`, { source: 'options', path });
}

/** Validates the analytics options; throws an {@link InputError} naming the bad one. */
export function resolveAnalyticsOptions(options: AnalyticsOptions = {}): ResolvedAnalyticsOptions {
  let now: number | undefined;
  if (options.now !== undefined) {
    const parsed = NowSchema.safeParse(options.now);
    if (!parsed.success) throw optionsError('now', parsed.error.issues);
    now = parsed.data;
  }
  const settings = CopySettingsSchema.safeParse(options.copySettings ?? {});
  if (!settings.success) throw optionsError('copySettings', settings.error.issues);
  const engineOptionsInput = options.engineOptions ?? {};
  return {
    now,
    copySettings: settings.data,
    engineOptionsInput,
    engineOptions: resolveEngineOptions(engineOptionsInput),
  };
}
