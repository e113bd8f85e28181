export * from "./chat-model.js";
export * from "./language-model-narrator.js";
export * from "./openai-compatible.js";
