import { z } from 'zod';
import { deliveryStatusResponse } from '../deliveries/deliveries.schema';
import { latLngResponse } from '../../platform/geo';
import { dateTime, integer } from '../../platform/schema-types';

/** What the tracking feature answers: its response schemas, the only description of those shapes (`.meta({ id })` names the component). */

export const routePointResponse = z.object({
  x: z.number(),
  y: z.number(),
}).meta({ id: 'RoutePoint', description: "A point of the tracking page's route drawing, in its SVG box (0-320 × 0-160)." });

export const trackingStatusResponse = z.object({
  status: deliveryStatusResponse,
  final: z.boolean().meta({ description: 'Delivered, failed or cancelled: nothing will change any more; stop polling.' }),
  test: z.boolean().meta({ description: 'A test-mode (sandbox) delivery, made with an `mk_test_` key: the page shows a TEST marker.' }),
  partner: z.object({
    name: z.string().nullable().meta({ description: "Its branding's display name, else the organization's name." }),
    logo_url: z.string().nullable().meta({ description: 'The logo on this origin (`/track/{token}/logo`); null without one.' }),
    brand_color: z.string().regex(/^#[0-9a-f]{6}$/).nullable(),
  }).meta({ description: 'The sending partner as it set its branding (`PATCH /admin/v1/partner/branding`).' }),
  timeline: z.array(z.object({
    status: deliveryStatusResponse,
    at: dateTime(),
  })).meta({ description: 'Every status so far, oldest first (`pending` at creation).' }),
  courier: z.object({
    first_name: z.string(),
    vehicle: z.object({
      type: z.enum(['moto', 'economy', 'comfort', 'xl']),
      make: z.string(),
      model: z.string(),
      color: z.string(),
      plate: z.string(),
    }),
  }).nullable().meta({ description: 'Once a courier accepted and until the delivery is final (delivered, failed or cancelled): only the first name and\nthe vehicle. `null` before assignment and from the hand-over on.\n' }),
  courier_location: z.object({
    lat: z.number(),
    lng: z.number(),
    heading: z.number().nullable(),
    updated_at: dateTime(),
  }).nullable().meta({ description: "The courier's latest position while carrying the parcel (`picked_up`) and at least 300 m from the pick-up point;\n`null` otherwise: on the way to the pick-up, at the hand-over and within 300 m of it (each would disclose the\npick-up point).\n" }),
  dropoff_area: latLngResponse.meta({ description: 'The drop-off rounded to 3 decimals (about 100 m).' }),
  route: z.object({
    pickup: routePointResponse,
    dropoff: routePointResponse,
    courier: routePointResponse.nullable(),
    progress: z.number().min(0).max(1).nullable(),
  }).meta({ description: "The route drawing, in the page's SVG box (`viewBox=\"0 0 320 160\"`, north up): a straight line from the pick-up\n(rounded to about 100 m, never given as coordinates) to the drop-off area, and the courier's position placed on\nthat line while it is shown, with how far along it is (0 at the pick-up, 1 at the drop-off).\n" }),
  distance_meters: integer().nullable().meta({ description: 'Straight-line distance from the courier to the drop-off, while a position is shown (never within 300 m of the pick-up).' }),
  eta_seconds: integer().nullable().meta({ description: "From assignment on, as delivery estimates reckon it (straight-line metres × 1.3 at the courier's vehicle's\naverage speed): assigned, the courier's way to the pick-up plus the trip; picked up, the way to the drop-off.\nIn whole minutes (a multiple of 60, at least 60), so it never gives the pick-up's exact distance. Null before\nassignment, once final, or while no courier position is known.\n" }),
  proof_of_delivery: z.object({
    received_by: z.string().nullable(),
    photo_url: z.string().nullable().meta({ description: '`/track/{token}/proof/photo`' }),
    signature_url: z.string().nullable().meta({ description: '`/track/{token}/proof/signature`' }),
  }).nullable().meta({ description: 'Once delivered; the images (when the courier handed them in) are on this origin.' }),
  poll_after_ms: integer().nullable().meta({ description: 'When to ask again (3000); `null` once final.' }),
  updated_at: dateTime().meta({ description: "The delivery's last status change." }),
}).meta({ id: 'TrackingStatus', description: 'What the public tracking page shows, and nothing more.', example: {'status':'picked_up','final':false,'timeline':[{'status':'pending','at':'2026-11-26T09:00:00.000Z'},{'status':'courier_assigned','at':'2026-11-26T09:01:10.000Z'},{'status':'picked_up','at':'2026-11-26T09:12:40.000Z'}],'courier':{'first_name':'Musa','vehicle':{'type':'moto','make':'Honda','model':'CG125','color':'red','plate':'MC-4821'}},'courier_location':{'lat':6.4402,'lng':3.4101,'heading':135,'updated_at':'2026-11-26T09:15:02.000Z'},'dropoff_area':{'lat':6.428,'lng':3.422},'test':false,'partner':{'name':'Mama Put Kitchen','logo_url':'/track/q3X9kP2mZ7vR4tYw8bN6cD1e/logo','brand_color':'#0b6e4f'},'route':{'pickup':{'x':24,'y':24},'dropoff':{'x':296,'y':136},'courier':{'x':160,'y':80},'progress':0.5},'distance_meters':1840,'eta_seconds':300,'proof_of_delivery':null,'poll_after_ms':3000,'updated_at':'2026-11-26T09:12:40.000Z'} });
