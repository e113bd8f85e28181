import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A scripted OpenAI-compatible chat-completions server on loopback: each POST /chat/completions
 * takes the next scripted answer (the last one repeats) and the request bodies are kept, so a
 * test can say what the model "does" and check what the adapter sent.
 */
export interface ScriptedAnswer {
  status?: number;
  body: unknown;
  /** Wait this long before answering (a slow model). */
  delayMs?: number;
  /**
   * Send the body in 64 KiB chunks without a Content-Length (chunked encoding), waiting for the
   * client to take each one; the bytes the client took are kept in `bytesSent`.
   */
  chunked?: boolean;
}

export interface ScriptedModelServer {
  baseUrl: string;
  /** The request bodies received, in order. */
  received: Record<string, unknown>[];
  /** Bytes of the last chunked answer the client took before it finished or went away. */
  readonly bytesSent: number;
  /** Requests whose client closed the connection before the (delayed) answer was sent. */
  readonly closedBeforeAnswer: number;
  script(answers: ScriptedAnswer[]): void;
  close(): Promise<void>;
}

export async function startScriptedModelServer(): Promise<ScriptedModelServer> {
  let answers: ScriptedAnswer[] = [];
  const received: Record<string, unknown>[] = [];
  let bytesSent = 0;
  let closedBeforeAnswer = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404).end();
        return;
      }
      received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      const answer = answers.length > 1 ? answers.shift() : answers[0];
      const send = () => {
        const body = Buffer.from(JSON.stringify(answer?.body ?? {}));
        if (!answer?.chunked) {
          res.writeHead(answer?.status ?? 200, {
            "content-type": "application/json",
            "content-length": String(body.length),
          });
          res.end(body);
          return;
        }
        res.writeHead(answer?.status ?? 200, { "content-type": "application/json" });
        bytesSent = 0;
        const writeFrom = (offset: number): void => {
          let next = offset;
          while (next < body.length && !res.destroyed) {
            const chunk = body.subarray(next, next + 65_536);
            next += chunk.length;
            if (!res.write(chunk, () => (bytesSent += chunk.length))) {
              res.once("drain", () => writeFrom(next));
              return;
            }
          }
          if (!res.destroyed) res.end();
        };
        writeFrom(0);
      };
      let answered = false;
      const timer = setTimeout(() => {
        answered = true;
        send();
      }, answer?.delayMs ?? 0);
      res.on("close", () => {
        clearTimeout(timer);
        if (!answered) closedBeforeAnswer++;
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    received,
    get bytesSent() {
      return bytesSent;
    },
    get closedBeforeAnswer() {
      return closedBeforeAnswer;
    },
    script(next) {
      answers = [...next];
      received.length = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A chat-completions answer asking for tool calls; `args` is sent as given (a string stays raw). */
export function toolCallsAnswer(calls: { name: string; args: unknown }[]): ScriptedAnswer {
  return completion({
    role: "assistant",
    content: null,
    tool_calls: calls.map((call, index) => ({
      id: `call_${index + 1}`,
      type: "function",
      function: {
        name: call.name,
        arguments: typeof call.args === "string" ? call.args : JSON.stringify(call.args),
      },
    })),
  });
}

/** A chat-completions answer with final text. */
export function textAnswer(content: string): ScriptedAnswer {
  return completion({ role: "assistant", content });
}

function completion(message: Record<string, unknown> & { tool_calls?: unknown[] }): ScriptedAnswer {
  return {
    body: {
      id: "chatcmpl-scripted",
      object: "chat.completion",
      created: 1_700_000_000,
      model: "scripted",
      choices: [{ index: 0, message, finish_reason: message.tool_calls ? "tool_calls" : "stop" }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    },
  };
}
