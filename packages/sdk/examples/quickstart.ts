/**
 * The README's example, runnable: `SVC_API_KEY=svc_sk_test_... pnpm exec tsx examples/quickstart.ts`
 * against `pnpm start` (SVC_BASE_URL defaults to http://localhost:3000). The SDK's service test
 * runs it too.
 */
import { createClient, RateLimitedError } from "@svc/sdk";

const svc = createClient({
  apiKey: process.env.SVC_API_KEY ?? "",
  baseUrl: process.env.SVC_BASE_URL ?? "http://localhost:3000",
});

const prediction = await svc.relapse.predict({
  assessments: [
    {
      instrumentId: "phq9",
      instrumentName: "PHQ-9",
      score: 9,
      maxScore: 27,
      createdAt: "2026-06-01T09:00:00Z",
    },
    {
      instrumentId: "phq9",
      instrumentName: "PHQ-9",
      score: 16,
      maxScore: 27,
      createdAt: "2026-06-15T09:00:00Z",
    },
  ],
  avgSleepHours: 5,
});
console.log("relapse", prediction.data.score, prediction.data.level);

const order = await svc.labs.orders.create({ patientRef: "pt_1001", panelId: "lithium_monitoring" });
for await (const o of svc.labs.orders.list({ patientRef: "pt_1001" })) console.log("order", o.id, o.status);

try {
  const cancelled = await svc.labs.orders.cancel(order.data.id);
  console.log("cancelled", cancelled.data.status);
} catch (error) {
  if (error instanceof RateLimitedError) console.log("slow down", error.requestId);
  else throw error;
}
