export * from "./chat-model.js";
export * from "./model-narrator.js";
export * from "./openai-compatible.js";
