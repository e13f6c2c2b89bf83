import { z } from 'zod';
import { route, type ResponseObjectSpec } from '@platform/service-kit/route-table';
import { problemSchema } from '@platform/service-kit/problem-schema';
import { invalidAdminTokenResponse, notFoundResponse, ownerOnlyLiveOnlyResponse, payloadTooLargeResponse, testModeNotSupportedResponse, unsupportedMediaTypeResponse, validationFailedResponse } from '../../http-contract';
import { checkoutBody, topUpBody } from './payments.schema';
import { pageSchema } from '@platform/service-kit/pagination';

export const moneySchema = z.object({
  amount: z.int().meta({ description: "Minor units (kobo for NGN)." }),
  currency: z.string().regex(/^[A-Z]{3}$/),
}).meta({ id: "Money" });

export const planSchema = z.object({
  id: z.string().meta({ examples: ["starter"] }),
  name: z.string(),
  price: moneySchema,
  credits: z.int().min(0),
}).meta({ id: "Plan" });

export const creditPackSchema = z.object({
  id: z.string().meta({ examples: ["credits_500"] }),
  name: z.string(),
  credits: z.int().min(1),
  price: moneySchema,
}).meta({ id: "CreditPack" });

/** A payment's own fields, as every answer about one gives them; each answer adds its own (no component of its own: no `id`). */
const paymentFields = z.object({
  reference: z.string().regex(/^pay_/),
  kind: z.enum(["plan_upgrade", "credit_top_up"]).meta({ description: "What it buys: a plan, or a credit pack (the plan unchanged)." }),
  plan: z.string().nullable().meta({ description: "The plan of an upgrade; null for a top-up." }),
  credit_pack: z.string().nullable().meta({ description: "The pack of a top-up; null for an upgrade." }),
  credits: z.int().min(0).meta({ description: "The credits it adds once paid." }),
  amount: moneySchema,
  gateway: z.enum(["gateway-a", "gateway-b"]),
  status: z.enum(["pending", "succeeded", "failed"]),
  failure_reason: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
});

export const billingPaymentSchema = paymentFields.extend({
  gateway_name: z.string(),
  activated_at: z.iso.datetime({ offset: true }).nullable().meta({ description: "When the payment was confirmed (the plan period's start)." }),
  period: z.enum(["month"]).nullable().meta({ description: "The paid plan's period (null for a top-up)." }),
  renews_at: z.iso.datetime({ offset: true }).nullable().meta({ description: "One month after a plan's activation, when the next payment is due (null for a top-up)." }),
  invoice: z.object({
    id: z.string().meta({ description: "The invoice id: `GET /admin/v1/invoices/{id}` (`/pdf` for its PDF)." }),
    number: z.string().meta({ examples: ["INV-2026-000001"] }),
  }).nullable().meta({ description: "The invoice issued when the payment was confirmed; null while it is not paid (and for payments confirmed before invoices existed, which have a receipt only)." }),
}).meta({ id: "BillingPayment" });

export const checkoutStartedSchema = paymentFields.extend({
  gateway_name: z.string().meta({ description: "The gateway's display name." }),
  checkout_url: z.url().meta({ description: "The gateway's hosted payment page; send the payer there." }),
}).meta({ id: "CheckoutStarted" });

export const gatewayAEventSchema = z.object({
  event: z.string().meta({ examples: ["charge.success"] }),
  data: z.object({
    id: z.int().optional(),
    reference: z.string().meta({ description: "The checkout reference (`pay_…`)." }).optional(),
    amount: z.int().meta({ description: "Minor units." }).optional(),
    currency: z.string().optional(),
    status: z.string().optional(),
    paid_at: z.string().optional(),
  }),
}).meta({ id: "GatewayAEvent" });

export const gatewayBEventSchema = z.object({
  event: z.string().meta({ examples: ["charge.completed"] }),
  data: z.object({
    id: z.int().meta({ description: "The gateway's transaction id, used to verify." }).optional(),
    tx_ref: z.string().meta({ description: "The checkout reference (`pay_…`)." }).optional(),
    flw_ref: z.string().optional(),
    amount: z.number().meta({ description: "Major units, may have decimals." }).optional(),
    currency: z.string().optional(),
    status: z.string().optional(),
  }),
}).meta({ id: "GatewayBEvent" });

export const webhookReceivedResponse: ResponseObjectSpec = { id: 'WebhookReceived', description: "Received; activated, ignored, already activated, unknown reference, payment failed, or (gateway B without a secret hash) recorded only.", content: { "application/json": z.object({
  received: z.literal(true),
}) } };

export const malformedWebhookResponse: ResponseObjectSpec = { id: 'MalformedWebhook', description: "The signed body is not JSON (`invalid_json`) or not an event of this gateway (`malformed_webhook`).", content: { "application/problem+json": problemSchema } };

export const invalidSignatureResponse: ResponseObjectSpec = { id: 'InvalidSignature', description: "Missing or wrong signature or hash (`invalid_signature`); nothing changes.", content: { "application/problem+json": problemSchema }, examples: {"application/problem+json": {"type": "https://docs.partner-platform.example/errors/invalid_signature", "title": "Unauthorized", "status": 401, "detail": "Invalid webhook signature", "error": "Invalid webhook signature", "code": "invalid_signature"}} };

export const verificationUnavailableResponse: ResponseObjectSpec = { id: 'VerificationUnavailable', description: "The gateway's verify API gave no usable answer (`verification_unavailable`): unreachable, timed out, 401 or 403\n(our secret key refused), 408, 429, another non-404 error status, 5xx, a body that is not JSON or of an unknown shape.\nOr the gateway is not configured (`gateway_not_configured`). Nothing is activated, the payment stays pending, the\nreceipt is kept; the gateway should retry.\n", content: { "application/problem+json": problemSchema } };

/** A payment as the billing history showed it before `BillingPayment`; still in the description for clients that name it. */
export const paymentSchema = paymentFields.meta({ id: "Payment" });

/** How a gateway's webhook is answered, whichever the gateway: received, or refused for its body, signature, size or shape, or left for a retry when the payment cannot be verified. */
const gatewayWebhookAnswers = {
  200: webhookReceivedResponse,
  400: malformedWebhookResponse,
  401: invalidSignatureResponse,
  413: payloadTooLargeResponse,
  422: validationFailedResponse,
  503: verificationUnavailableResponse,
};

/** How starting a payment at a gateway (a plan checkout, a credit top-up) is answered: the checkout started, or refused for the caller's token or the body, or a gateway problem (502, 503). */
const checkoutAnswers = {
  201: checkoutStartedSchema,
  401: invalidAdminTokenResponse,
  403: testModeNotSupportedResponse,
  415: unsupportedMediaTypeResponse,
  422: validationFailedResponse,
  502: { content: { "application/problem+json": problemSchema } },
  503: { content: { "application/problem+json": problemSchema } },
};

/**
 * Plans, credit packs, checkouts and payments are real money: live only. A dashboard session in test mode (`?mode=test`)
 * is refused with 403 `test_mode_not_supported` before anything happens.
 */
const adminBilling = { tags: ["Admin subscriptions"], security: [{"adminJwt": []}], mode: 'live-only' as const };

export const paymentsRouteTable = [
  route({
    operationId: 'receiveGatewayAWebhook',
    method: 'post',
    path: '/webhooks/payments/gateway-a',
    tags: ["Payment webhooks"],
    security: [],
    headers: z.object({ "X-Gateway-Signature": z.string().regex(/^[0-9a-f]{128}$/) }),
    body: { "application/json": gatewayAEventSchema },
    // The signature is over the exact bytes: they (and the signature header, as sent) go to the handler unparsed.
    rawBody: true,
    bodyLimit: '100kb',
    responses: gatewayWebhookAnswers,
  }),
  route({
    operationId: 'receiveGatewayBWebhook',
    method: 'post',
    path: '/webhooks/payments/gateway-b',
    tags: ["Payment webhooks"],
    security: [],
    headers: z.object({ "X-Webhook-Hash": z.string().optional() }),
    body: { "application/json": gatewayBEventSchema },
    // The signature is over the exact bytes: they (and the signature header, as sent) go to the handler unparsed.
    rawBody: true,
    bodyLimit: '100kb',
    responses: gatewayWebhookAnswers,
  }),
  route({
    operationId: 'listPlans',
    method: 'get',
    path: '/admin/v1/plans',
    ...adminBilling,
    responses: {
      200: pageSchema(planSchema),
      401: invalidAdminTokenResponse,
      403: testModeNotSupportedResponse,
    },
  }),
  route({
    operationId: 'checkout',
    method: 'post',
    path: '/admin/v1/subscriptions/checkout',
    ...adminBilling,
    body: checkoutBody,
    audit: 'plan.checkout_started',
    responses: {
      ...checkoutAnswers,
      404: notFoundResponse,
    },
  }),
  route({
    operationId: 'listCreditPacks',
    method: 'get',
    path: '/admin/v1/credit-packs',
    ...adminBilling,
    responses: {
      200: pageSchema(creditPackSchema),
      401: invalidAdminTokenResponse,
      403: testModeNotSupportedResponse,
    },
  }),
  route({
    operationId: 'startCreditTopUp',
    method: 'post',
    path: '/admin/v1/credits/top-ups',
    ...adminBilling,
    body: topUpBody,
    // It spends the organization's money: owners only.
    roles: ['owner'],
    audit: 'credits.checkout_started',
    responses: {
      ...checkoutAnswers,
      403: ownerOnlyLiveOnlyResponse,
    },
  }),
  route({
    operationId: 'listPayments',
    method: 'get',
    path: '/admin/v1/payments',
    ...adminBilling,
    responses: {
      200: pageSchema(billingPaymentSchema),
      401: invalidAdminTokenResponse,
      403: testModeNotSupportedResponse,
    },
  }),
  route({
    operationId: 'paymentReceipt',
    method: 'get',
    path: '/admin/v1/payments/{reference}/receipt',
    ...adminBilling,
    params: z.object({ reference: z.string() }),
    responses: {
      200: { content: { "application/pdf": z.string().meta({ format: "binary" }) } },
      401: invalidAdminTokenResponse,
      403: testModeNotSupportedResponse,
      404: notFoundResponse,
    },
  }),
  route({
    operationId: 'listPaymentGateways',
    method: 'get',
    path: '/admin/v1/payment-gateways',
    ...adminBilling,
    responses: {
      200: z.object({
  data: z.array(z.object({
    id: z.enum(["gateway-a", "gateway-b"]),
    name: z.string().meta({ examples: ["Paystack"] }),
    available: z.boolean(),
  })),
}),
      401: invalidAdminTokenResponse,
      403: testModeNotSupportedResponse,
    },
  }),
] as const;
