import { accessSync, constants } from "node:fs";
import { z } from "@hono/zod-openapi";

/**
 * One schema for the environment of every app; all problems are reported at once. Rules that
 * join two variables live in `parseEnv` (one place each), so they are reported even when another
 * variable is also wrong.
 */
export const ServiceEnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  /** Unset: `DEFAULT_REDIS_URL` for servers; the embedded default then delivers in-process. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
    .optional(),
  SVC_DATA_DIR: z.string().min(1).default("./.data"),
  PUBLIC_BASE_URL: z.string().url("must be an absolute URL such as https://api.example.com").optional(),
  TLS_CERT_FILE: z.string().min(1).optional(),
  TLS_KEY_FILE: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** OpenAI-compatible chat-completions endpoint for `explain: true`; the template narrator without it. */
  MODEL_BASE_URL: z.string().url("must be an absolute URL such as https://api.openai.com/v1").optional(),
  MODEL_API_KEY: z.string().min(1).optional(),
  MODEL_NAME: z.string().min(1).max(200).optional(),
  /**
   * May a tenant's test-mode webhook endpoint be on loopback (127.0.0.0/8, ::1, localhost)?
   * Unset: yes on the embedded database (one developer's machine), no with DATABASE_URL (a hosted
   * service, where the server's loopback is the operator's own services). See `loopbackWebhooksAllowed`.
   */
  ALLOW_LOOPBACK_WEBHOOKS: z.enum(["true", "false"], { message: "must be true or false" }).optional(),
});
export type ServiceEnv = z.infer<typeof ServiceEnvSchema>;

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

export function parseEnv(source: Record<string, string | undefined> = process.env): ServiceEnv {
  // Treat empty strings as unset, the way shells and .env files usually mean them.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = ServiceEnvSchema.safeParse(cleaned);
  const problems = result.success
    ? []
    : result.error.issues.map((i) => `${i.path.join(".") || "env"}: ${i.message}`);
  // Checks across variables and on the files themselves, reported with the schema's problems.
  if (Boolean(cleaned.TLS_CERT_FILE) !== Boolean(cleaned.TLS_KEY_FILE)) {
    problems.push("TLS_CERT_FILE/TLS_KEY_FILE: set both, or neither (then put TLS on the load balancer)");
  }
  if (cleaned.MODEL_BASE_URL && !cleaned.MODEL_NAME)
    problems.push("MODEL_NAME: set MODEL_NAME with MODEL_BASE_URL");
  for (const name of ["TLS_CERT_FILE", "TLS_KEY_FILE"] as const) {
    const file = cleaned[name];
    if (!file) continue;
    try {
      accessSync(file, constants.R_OK);
    } catch {
      problems.push(`${name}: cannot read ${file}`);
    }
  }
  if (!result.success || problems.length > 0) throw new EnvError(problems);
  return result.data;
}

/** Where Redis is looked for when REDIS_URL is unset. */
export const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";

/** The Redis a server process uses: REDIS_URL, or the local default. */
export function redisUrlOf(env: ServiceEnv): string {
  return env.REDIS_URL ?? DEFAULT_REDIS_URL;
}

/** The certificate and key to serve HTTPS with, when both are set (parseEnv refuses one alone). */
export function tlsFilesOf(env: ServiceEnv): { certFile: string; keyFile: string } | undefined {
  return env.TLS_CERT_FILE && env.TLS_KEY_FILE
    ? { certFile: env.TLS_CERT_FILE, keyFile: env.TLS_KEY_FILE }
    : undefined;
}

/**
 * The operator's loopback setting for tenants' test-mode webhook endpoints (registration and every
 * delivery): ALLOW_LOOPBACK_WEBHOOKS when set, else on for the embedded database and off with
 * DATABASE_URL, where any tenant could otherwise reach the host's own loopback services and read
 * their answers back in the delivery log. The operator's per-endpoint `--allow-private` is apart.
 */
export function loopbackWebhooksAllowed(
  env: Pick<ServiceEnv, "ALLOW_LOOPBACK_WEBHOOKS" | "DATABASE_URL">,
): boolean {
  if (env.ALLOW_LOOPBACK_WEBHOOKS !== undefined) return env.ALLOW_LOOPBACK_WEBHOOKS === "true";
  return !env.DATABASE_URL;
}

export function publicBaseUrl(env: ServiceEnv): string {
  return (env.PUBLIC_BASE_URL ?? `${env.TLS_CERT_FILE ? "https" : "http"}://localhost:${env.PORT}`).replace(
    /\/$/,
    "",
  );
}
