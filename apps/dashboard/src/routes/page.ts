import type { Context } from "hono";
import type { Env } from "./context.js";

/**
 * The request of a signed-in dashboard page on `Path`: what each route's handler takes (as the
 * APIs' routes do, one named handler per route and a short register function listing them).
 */
export type Page<Path extends string> = Context<Env, Path>;
