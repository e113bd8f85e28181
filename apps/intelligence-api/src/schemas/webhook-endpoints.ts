import { z } from "@hono/zod-openapi";

/** Shapes of the webhook endpoint routes (one zod schema per shape: validation, OpenAPI and tests). */

/** The longest endpoint URL taken (the address rules refuse longer ones too). */
export const ENDPOINT_URL_MAX = 2048;

const EndpointUrl = z.string().min(1).max(ENDPOINT_URL_MAX).openapi({
  description:
    "Where events are posted. Live mode: `https://` only. Never a private, loopback, link-local or metadata address (checked now, against every address the name resolves to, and again at each delivery). Test mode may use `http://127.0.0.1` where the operator allows loopback webhooks.",
  example: "https://93.184.215.14/svc-hooks",
});

export const WebhookEndpointSchema = z
  .object({
    object: z.literal("webhook_endpoint"),
    id: z.string().openapi({ example: "we_01jd3k8w6t1x9c0q2m4n5p7r8s" }),
    url: z.string(),
    mode: z
      .enum(["test", "live"])
      .openapi({ description: "The key's mode: test keys manage test-mode endpoints, live keys live ones." }),
    status: z.enum(["enabled", "disabled"]).openapi({
      description:
        "`disabled`: no new deliveries (set through the API or the dashboard, or after the receiver answered 410 Gone).",
    }),
    disabledAt: z.string().nullable(),
    disabledReason: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("WebhookEndpoint", {
    description: "A webhook endpoint of the account; its signing secret is never shown here.",
  });
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

export const WebhookEndpointWithSecretSchema = WebhookEndpointSchema.extend({
  secret: z.string().openapi({
    description: "The signing secret (`whsec_...`), shown in this answer only: store it now.",
    example: "whsec_3q2b8bT0yV1fWcQpK9rXz4mN6sL7aD5e",
  }),
}).openapi("WebhookEndpointWithSecret");

export const WebhookEndpointResponseSchema = z
  .object({ ok: z.literal(true), data: WebhookEndpointSchema })
  .openapi("WebhookEndpointResponse");
export type WebhookEndpointResponse = z.infer<typeof WebhookEndpointResponseSchema>;

export const WebhookEndpointSecretResponseSchema = z
  .object({ ok: z.literal(true), data: WebhookEndpointWithSecretSchema })
  .openapi("WebhookEndpointSecretResponse");
export type WebhookEndpointSecretResponse = z.infer<typeof WebhookEndpointSecretResponseSchema>;

export const WebhookEndpointListResponseSchema = z
  .object({
    ok: z.literal(true),
    data: z.object({
      object: z.literal("list"),
      resource: z.literal("webhook_endpoint"),
      count: z.number().int(),
      endpoints: z.array(WebhookEndpointSchema),
      hasMore: z.boolean(),
      nextCursor: z.string().nullable().openapi({ description: "Pass as `cursor` for the next page." }),
    }),
  })
  .openapi("WebhookEndpointList");
export type WebhookEndpointListResponse = z.infer<typeof WebhookEndpointListResponseSchema>;

export const WebhookEndpointDeletedResponseSchema = z
  .object({
    ok: z.literal(true),
    data: z.object({
      object: z.literal("webhook_endpoint"),
      id: z.string(),
      deleted: z.literal(true),
      cancelledDeliveries: z
        .number()
        .int()
        .openapi({ description: "Pending deliveries to it, now cancelled." }),
    }),
  })
  .openapi("WebhookEndpointDeleted");
export type WebhookEndpointDeletedResponse = z.infer<typeof WebhookEndpointDeletedResponseSchema>;

export const CreateWebhookEndpointRequestSchema = z
  .object({ url: EndpointUrl })
  .openapi("CreateWebhookEndpointRequest");
export type CreateWebhookEndpointRequest = z.infer<typeof CreateWebhookEndpointRequestSchema>;

export const UpdateWebhookEndpointRequestSchema = z
  .object({
    url: EndpointUrl.optional(),
    status: z
      .enum(["enabled", "disabled"])
      .optional()
      .openapi({ description: "`disabled` stops new deliveries; `enabled` resumes them." }),
  })
  .refine((body) => body.url !== undefined || body.status !== undefined, {
    message: "give url, status or both",
  })
  .openapi("UpdateWebhookEndpointRequest");
export type UpdateWebhookEndpointRequest = z.infer<typeof UpdateWebhookEndpointRequestSchema>;

export const EndpointIdParams = z.object({
  id: z
    .string()
    .max(64)
    .openapi({ param: { name: "id", in: "path" }, example: "we_01jd3k8w6t1x9c0q2m4n5p7r8s" }),
});
