import { randomUUID } from "node:crypto";
import { cdsFeedback, sql } from "@svc/db";
import { CONTROL_MESSAGE, MAX_JSON_DEPTH, SURROGATE_MESSAGE } from "@svc/http";
import { Seeder } from "@svc/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PATIENT_ID, searchset } from "../../../packages/fhir/test/inbound-fixtures.js";
import { type CdsTestbed, PUBLIC_BASE, startCdsTestbed } from "./cds-ehr.js";

/**
 * The CDS door crosses the same input screen as /v1 (decision 150), over real HTTP with the EHR's
 * own JWTs: hook bodies and feedback bodies nested 100,000 deep, holding NUL or a lone surrogate,
 * are 400 with the screen's findings and the service stays up; FHIR answers fetched from a
 * scripted server on loopback that fail the screen are data that could not be read, said on a
 * card, never silently normal and never a 500.
 */

const DEEP = 100_000;
let bed: CdsTestbed;
let answers: Record<string, string>;

beforeAll(async () => {
  bed = await startCdsTestbed();
  bed.fhir.answer = (path) => {
    const type = /^\/fhir\/(\w+)\?/.exec(path)?.[1] ?? "";
    const code = /code=([^&]*)/.exec(path)?.[1] ?? "";
    const key =
      type === "Observation" ? (decodeURIComponent(code).includes("14334-7") ? "labs" : "scores") : type;
    return { status: 200, body: answers[key] ?? JSON.stringify(searchset([])) };
  };
});
afterAll(() => bed.close());
beforeEach(() => {
  answers = {};
});

function fhirAuthorization() {
  return {
    access_token: "t",
    token_type: "Bearer",
    expires_in: 300,
    scope: "patient/*.read",
    subject: "cds",
  };
}

function patientView(extra: Record<string, unknown> = {}) {
  return {
    hook: "patient-view",
    hookInstance: randomUUID(),
    fhirServer: bed.fhir.url,
    fhirAuthorization: fhirAuthorization(),
    context: { userId: "Practitioner/abc", patientId: PATIENT_ID },
    ...extra,
  };
}

/** A Bundle whose `entry` is `depth` nested arrays: 2 bytes a level, far under the 1 MB limit. */
function deepBundle(depth: number): string {
  return `{"resourceType":"Bundle","type":"searchset","entry":${"[".repeat(depth)}${"]".repeat(depth)}}`;
}

async function postFeedback(body: string) {
  const serviceId = "psych-patient-view";
  const response = await fetch(`${bed.url}${bed.basePath}/${serviceId}/feedback`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${await bed.jwt(`${PUBLIC_BASE}${bed.basePath}/${serviceId}/feedback`)}`,
      "content-type": "application/json",
    },
    body,
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : null };
}

async function storedFeedback(): Promise<number> {
  const [row] = await bed.db.handle.db.select({ n: sql<number>`count(*)::int` }).from(cdsFeedback);
  return row?.n ?? 0;
}

async function healthy(): Promise<boolean> {
  const response = await fetch(`${bed.url}/healthz`, { signal: AbortSignal.timeout(5_000) });
  return response.status === 200;
}

describe("hook and feedback bodies cross the /v1 screen", () => {
  it("a prefetch Bundle nested 100,000 deep is 400 naming the depth, and the service stays up", async () => {
    const body = JSON.stringify(patientView()).replace(/}$/, `,"prefetch":{"labs":${deepBundle(DEEP)}}}`);
    const answer = await bed.callHook("psych-patient-view", body);
    expect(answer.status).toBe(400);
    expect(answer.json.error?.code).toBe("invalid_request");
    expect(answer.json.error?.issues?.[0]?.message).toBe(`Nested deeper than ${MAX_JSON_DEPTH} levels.`);
    expect(await healthy()).toBe(true);
    const after = await bed.callHook("psych-patient-view", patientView());
    expect(after.status).toBe(200);
  });

  it("a NUL in a feedback comment is 400 at its path, and nothing is stored", async () => {
    const before = await storedFeedback();
    const report = {
      card: randomUUID(),
      outcome: "overridden",
      overrideReason: { userComment: "fine\u0000DROP" },
      outcomeTimestamp: new Date().toISOString(),
    };
    const answer = await postFeedback(JSON.stringify({ feedback: [report] }));
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe("invalid_request");
    expect(answer.json.error.issues).toEqual([
      { path: "feedback.0.overrideReason.userComment", message: CONTROL_MESSAGE },
    ]);
    expect(await storedFeedback()).toBe(before);
  });

  it("a lone surrogate is refused with the finding /v1 gives (SURROGATE_MESSAGE), in a hook body and in feedback", async () => {
    const hook = JSON.stringify(patientView()).replace(
      /"hookInstance":"[^"]*"/,
      '"hookInstance":"a\\ud800b"',
    );
    const answer = await bed.callHook("psych-patient-view", hook);
    expect(answer.status).toBe(400);
    expect(answer.json.error?.issues).toEqual([{ path: "hookInstance", message: SURROGATE_MESSAGE }]);
    const feedback = `{"feedback":[{"card":"x","outcome":"overridden","overrideReason":{"userComment":"\\udc00"},"outcomeTimestamp":"2026-01-01T00:00:00Z"}]}`;
    const refused = await postFeedback(feedback);
    expect(refused.status).toBe(400);
    expect(refused.json.error.issues[0].message).toBe(SURROGATE_MESSAGE);
  });

  it("a body that is not UTF-8 is 400, not read with replacement characters", async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"hook":"patient-view","hookInstance":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}'),
    ]);
    const response = await fetch(`${bed.url}${bed.basePath}/psych-patient-view`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${await bed.jwt(`${PUBLIC_BASE}${bed.basePath}/psych-patient-view`)}`,
        "content-type": "application/json",
      },
      body: bytes,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain("UTF-8");
  });
});

describe("one guard: a refused body reads the same at a hook as on /v1", () => {
  it("NUL, a lone surrogate, a reserved key and too deep: the hook's answer is /v1's, the body shape kept", async () => {
    const { key } = await new Seeder(bed.db.handle).caller();
    const bodies = [
      '{"hook":"patient-view","note":"a\\u0000b"}',
      '{"hook":"patient-view","context":{"userId":"\\ud800"}}',
      '{"hook":"patient-view","__proto__":{"x":1}}',
      `{"hook":"patient-view","prefetch":${deepBundle(40)}}`,
    ];
    const refusal = async (path: string, authorization: string, body: string) => {
      const response = await fetch(`${bed.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${authorization}`, "content-type": "application/json" },
        body,
      });
      const json = (await response.json()) as { ok: boolean; error: unknown; requestId: string };
      return { status: response.status, ok: json.ok, error: json.error, requestId: typeof json.requestId };
    };
    const hookPath = `${bed.basePath}/psych-patient-view`;
    for (const body of bodies) {
      const v1 = await refusal("/v1/medication/analyze", key, body);
      const hook = await refusal(hookPath, await bed.jwt(`${PUBLIC_BASE}${hookPath}`), body);
      expect(v1.status, body).toBe(400);
      expect(hook, body).toEqual(v1);
    }
  });
});

describe("fetched FHIR answers cross the same screen", () => {
  it("an answer 100,000 deep and one holding NUL are data that could not be read, said on a card", async () => {
    answers.labs = deepBundle(DEEP);
    answers.MedicationRequest = JSON.stringify(
      searchset([
        {
          resourceType: "MedicationRequest",
          id: "m1",
          status: "active",
          intent: "order",
          subject: { reference: `Patient/${PATIENT_ID}` },
          medicationCodeableConcept: { text: "lithium\u0000carbonate" },
        },
      ]),
    );
    const answer = await bed.callHook("psych-patient-view", patientView());
    expect(answer.status).toBe(200);
    const details = (answer.json.cards ?? [])
      .map((card) => `${card.summary}\n${card.detail ?? ""}`)
      .join("\n");
    expect(details).toContain("laboratory results: the EHR's answer could not be read");
    expect(details).toContain("active medications: the EHR's answer could not be read");
    expect(details).not.toContain("lithium");
    expect(await healthy()).toBe(true);
  });

  it("an order hook whose fetched medication list is unreadable says the check is incomplete", async () => {
    answers.MedicationRequest = deepBundle(DEEP);
    const body = {
      hook: "order-sign",
      hookInstance: randomUUID(),
      fhirServer: bed.fhir.url,
      fhirAuthorization: fhirAuthorization(),
      context: {
        userId: "Practitioner/abc",
        patientId: PATIENT_ID,
        draftOrders: { resourceType: "Bundle", type: "collection", entry: [] },
      },
    };
    const answer = await bed.callHook("psych-interactions-sign", body);
    expect(answer.status).toBe(200);
    const sources = (answer.json.cards ?? []).map((card) => card.source.url);
    expect(sources.some((url) => url.endsWith("/interaction-not-checked"))).toBe(true);
  });
});
