import { z } from 'zod';

/**
 * Building blocks of response schemas whose JSON Schema is exactly the description's (`format: date-time`, a bare
 * `type: integer`), while the parse still checks the value.
 */

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** An ISO-8601 timestamp as every answer writes it (`Date#toISOString`). */
export const dateTime = () =>
  z.string().refine((value) => ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)), 'must be an ISO-8601 date-time').meta({ format: 'date-time' });

/** A calendar day, `YYYY-MM-DD`. */
export const isoDate = () =>
  z.string().refine((value) => ISO_DATE.test(value) && !Number.isNaN(Date.parse(value)), 'must be a YYYY-MM-DD date').meta({ format: 'date' });

/** A whole number (its JSON Schema is `type: integer` without zod's safe-integer bounds). */
export const integer = () => z.number().refine(Number.isInteger, 'must be an integer').meta({ type: 'integer' });
