import { connect, type Socket } from "node:net";
import { type RunningServer, startServer } from "@svc/http/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ fetch: () => new Response("ok"), port: 0, hostname: "127.0.0.1" });
});
afterAll(async () => {
  await server.close(500);
});

/** Send one keep-alive GET on `socket` and resolve with the status line, or the socket's end. */
function exchange(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      socket.off("close", onClose);
      resolve(chunk.toString("latin1").split("\r\n")[0] as string);
    };
    const onClose = () => {
      socket.off("data", onData);
      resolve("closed");
    };
    socket.once("data", onData);
    socket.once("close", onClose);
    socket.write("GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n");
  });
}

describe("idle keep-alive connections", () => {
  // Node's default closes them after 5 s; a balancer or client pool that reuses one then fails.
  it("still answers on the same connection after 6 s idle", async () => {
    const socket = connect(server.port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    try {
      expect(await exchange(socket)).toBe("HTTP/1.1 200 OK");
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(await exchange(socket)).toBe("HTTP/1.1 200 OK");
    } finally {
      socket.destroy();
    }
  }, 15_000);
});
