import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/** An MCP client connected to the service's `/v1/mcp` with a secret key, as an external agent connects. */
export async function connectMcp(serviceUrl: string, key: string, name: string): Promise<Client> {
  const client = new Client({ name, version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${serviceUrl}/v1/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}
