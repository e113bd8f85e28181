import { existsSync, readFileSync, statSync } from "node:fs";

/**
 * The PostgreSQL server log of the test run (TEST_PG_LOG, exported by test-services.sh). Every test
 * file shares that server, so a test reads only what was appended since it started and looks for
 * errors only hostile input causes (or for its own marker), never for any `ERROR:` line.
 */
export const HOSTILE_PG_ERRORS =
  /invalid byte sequence|Unicode escape|surrogate|cannot be converted to text|stack depth/;

export function pgLogMark(): { available: boolean; since(): string } {
  const file = process.env.TEST_PG_LOG;
  const available = file !== undefined && existsSync(file);
  const start = available ? statSync(file as string).size : 0;
  return {
    available,
    since: () =>
      available
        ? readFileSync(file as string)
            .subarray(start)
            .toString("utf8")
        : "",
  };
}
