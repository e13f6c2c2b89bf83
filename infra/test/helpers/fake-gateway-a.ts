/**
 * Gateway A as a real HTTP server on loopback, for the browser suites that pay through its hosted page: its initialise
 * API answers a hosted payment page on this server, which "takes the payment" and sends the payer back to the callback
 * URL; its verify API knows the charges paid that way (under `transactionId`), and only with `secret`.
 */
import { sendJson, startFakeServer } from '@platform/test-kit';

export async function startFakeGatewayA(secret: string, transactionId: number) {
  const paid = new Map<string, { amount: number; currency: string }>();
  const visitedPaymentPages: string[] = [];
  const opened = new Map<string, { callback: string; amount: number; currency: string }>();
  const server = await startFakeServer((request, res) => {
    if (request.method === 'POST' && request.url === '/transaction/initialize') {
      if (request.headers.authorization !== `Bearer ${secret}`) return sendJson(res, 401, { status: false });
      const body = JSON.parse(request.body.toString('utf8')) as { reference: string; amount: number; currency: string; callback_url: string };
      opened.set(body.reference, { callback: body.callback_url, amount: body.amount, currency: body.currency });
      return sendJson(res, 200, { status: true, data: { authorization_url: `${server.url}/pay/${body.reference}`, access_code: 'ac_e2e', reference: body.reference } });
    }
    const page = /^\/pay\/([^/?]+)$/.exec(request.url);
    if (page && opened.has(page[1]!)) {
      const payment = opened.get(page[1]!)!;
      visitedPaymentPages.push(page[1]!);
      paid.set(page[1]!, { amount: payment.amount, currency: payment.currency });
      return void res.writeHead(303, { Location: payment.callback }).end();
    }
    const verify = /^\/transaction\/verify\/([^/]+)$/.exec(request.url);
    const charge = verify && paid.get(decodeURIComponent(verify[1]!));
    if (!verify || request.headers.authorization !== `Bearer ${secret}`) return sendJson(res, 401, { status: false });
    if (!charge) return sendJson(res, 404, { status: false });
    sendJson(res, 200, { status: true, data: { id: transactionId, status: 'success', reference: decodeURIComponent(verify[1]!), amount: charge.amount, currency: charge.currency } });
  });
  /** The charges paid on the hosted page, by reference; the references whose page was opened, in order. */
  return Object.assign(server, { paid, visitedPaymentPages });
}
