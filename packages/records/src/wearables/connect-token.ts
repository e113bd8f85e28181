import { randomBytes } from "node:crypto";

/** An unguessable connect token (256 bits, base64url, 43 characters): the connect page's credential. */
export function newConnectToken(): string {
  return randomBytes(32).toString("base64url");
}
export const CONNECT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The hosted connect page of a token: {public_base_url}/connect/{token}. */
export function connectUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl.replace(/\/$/, "")}/connect/${token}`;
}
