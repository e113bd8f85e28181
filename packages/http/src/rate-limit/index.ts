export * from "./fallback.js";
export * from "./limiter.js";
export * from "./memory.js";
export * from "./redis.js";
