import { type DestinationStream, type Logger, pino } from "pino";

/**
 * Structured JSON logs. Never log bodies or patientRef: request lines carry ids, method, route
 * pattern, status and duration only. Redaction is a second net for fields that should not exist.
 */
export function createLogger(
  options: { level?: string; name?: string; destination?: DestinationStream } = {},
): Logger {
  return pino(
    {
      level: options.level ?? process.env.LOG_LEVEL ?? "info",
      name: options.name,
      base: { pid: process.pid },
      redact: {
        paths: ["body", "patientRef", "authorization", "*.patientRef", "*.body"],
        censor: "[redacted]",
      },
    },
    options.destination,
  );
}
export type { Logger };
