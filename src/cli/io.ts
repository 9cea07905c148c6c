/** Where the command line writes: injectable so tests run commands in-process. */
export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** True when standard error is a terminal (progress bars are drawn only then). */
  readonly errIsTty: boolean;
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  errIsTty: Boolean(process.stderr.isTTY),
};

/** Exit codes of the command line (model section 8). */
export const EXIT_OK = 0;
export const EXIT_INPUT = 1;
export const EXIT_REQUEST = 2;

/** Serialises a response: compact, or indented with `pretty`. Always ends with a newline. */
export function formatJson(value: unknown, pretty: boolean): string {
  return `${JSON.stringify(value, null, pretty ? 2 : undefined)}\n`;
}
