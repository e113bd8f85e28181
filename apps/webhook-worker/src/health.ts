import type { DbHandle } from "@svc/db";

/**
 * /healthz and /readyz of the standalone worker, with the same bodies as the APIs' (the health
 * schema of the OpenAPI document): alive; ready when the database answers, Redis state reported.
 */
export function healthHandler(
  dbHandle: Pick<DbHandle, "ping">,
  redisState: () => "ready" | "down" | "disabled",
): (request: Request) => Promise<Response> {
  return async (request) => {
    const { pathname } = new URL(request.url);
    if (request.method !== "GET") return Response.json({ ok: false, status: "not_found" }, { status: 404 });
    if (pathname === "/healthz") return Response.json({ ok: true, status: "alive" });
    if (pathname === "/readyz") {
      const redis = redisState();
      try {
        await dbHandle.ping();
        return Response.json({ ok: true, status: "ready", database: "ready", redis });
      } catch {
        return Response.json({ ok: false, status: "not_ready", database: "down", redis }, { status: 503 });
      }
    }
    return Response.json({ ok: false, status: "not_found" }, { status: 404 });
  };
}
