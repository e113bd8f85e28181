import type { AgentRisk, PatientReview } from "@svc/engines";

/** Which ran a request: a language model's tool loop, or the fixed deterministic tool plan. */
export type AgentRunner = "model" | "deterministic";

export interface AgentReasoning {
  narrative: string;
  generatedAt: string;
  /** Additive: who wrote the narrative (the template narrator writes it from engine output). */
  narrator: "model" | "template";
}

export const RECORD_AGENT_PRODUCTS = ["medication", "biomarker", "outcome", "relapse"] as const;
export type RecordAgentProduct = (typeof RECORD_AGENT_PRODUCTS)[number];

/** The agent response envelope of the record-level agents (interface spec). */
export interface RecordAgentEnvelope<Assessment> {
  object: `${RecordAgentProduct}.agent.assessment`;
  patientId: string;
  mode: "advisory";
  /** False: a partial draft (the loop could not finish, part of the input was not recognised, or nothing could be grounded); see warnings. */
  ok: boolean;
  assessment: Assessment | null;
  risk: AgentRisk;
  reasoning: AgentReasoning | null;
  citations: string[];
  toolCalls: string[];
  steps: number;
  warnings: string[];
  /** Additive: which ran this request (decision 55). */
  runner: AgentRunner;
  /**
   * Additive (decision 198): the patient-over-time review of the request (medication and
   * biomarker agents), with the date it was reckoned at and its findings as a risk; its findings
   * are in `risk` too. Absent when the request sent no patient facts, not both medicines and
   * readings, and the review found nothing.
   */
  patientReview?: PatientReview & { asOf: string; risk: AgentRisk };
  disclaimer: string;
}

export const AGENT_DISCLAIMER =
  "Advisory decision support for clinician review. Every flag, score, band and severity here was computed by the service's deterministic engines, not by a language model; the narrative only restates them. It is not a diagnosis or a prescription, does not replace a clinician's or pharmacist's judgement, and nothing was written to the medical record.";
