import { ModelUnavailableError } from "./chat-model.js";

/** The reply's body, read chunk by chunk and refused as soon as it passes maxBytes. */
export async function readBounded(response: Response, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw replyOverBound(`model unavailable: reply of ${declared} bytes, over the bound of ${maxBytes}`);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw replyOverBound(`model unavailable: reply over the bound of ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** A reply refused for its size or its number of tool calls. */
export function replyOverBound(message: string): ModelUnavailableError {
  return new ModelUnavailableError("reply_over_bound", message);
}
