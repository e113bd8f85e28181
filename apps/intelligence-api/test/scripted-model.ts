import type { ToolLoopLimits } from "@svc/agents";
import { createOpenAiCompatibleChatModel } from "@svc/model";
import { type ScriptedModelServer, startScriptedModelServer } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { afterAll, beforeAll } from "vitest";

/**
 * A test service whose agents run on a scripted OpenAI-compatible model on loopback (the port's
 * real adapter), within `limits`, and an enterprise caller's key. `model` and `key` are set once
 * the file's hooks have run.
 */
export function useScriptedModelService(limits: ToolLoopLimits) {
  const state = {} as { model: ScriptedModelServer; key: string };
  beforeAll(async () => {
    state.model = await startScriptedModelServer();
  });
  afterAll(async () => {
    await state.model.close();
  });
  const svc = useTestService(() => ({
    chatModel: createOpenAiCompatibleChatModel({ baseUrl: state.model.baseUrl, model: "scripted" }),
    agentLimits: limits,
  }));
  beforeAll(async () => {
    state.key = (await svc.seed.caller("enterprise")).key;
  });
  return {
    svc,
    get model(): ScriptedModelServer {
      return state.model;
    },
    get key(): string {
      return state.key;
    },
  };
}
