import { z } from 'zod';
import { ValidationError } from '../src/errors';
import { controlCharacterIssues, parseOrThrow } from '../src/validation';

const schema = z.object({ name: z.string(), tags: z.array(z.string()).optional(), age: z.number().optional() });

function issuesOf(input: unknown) {
  try {
    parseOrThrow(schema, input);
  } catch (error) {
    if (error instanceof ValidationError) return (error.toBody().details as { path: string }[]).map((d) => d.path);
    throw error;
  }
  return [];
}

describe('parseOrThrow and control characters', () => {
  it.each(['\u0000', '\u0001', '\u0008', '\u000b', '\u000c', '\u001f', '\u007f', '\u0085', '\u009f'])('refuses U+%s in a text field', (char) => {
    expect(issuesOf({ name: `a${char}b` })).toEqual(['name']);
  });

  it('allows tab, line feed, carriage return and other Unicode text', () => {
    expect(parseOrThrow(schema, { name: 'a\tb\r\nc é 🚗 \u00a0' })).toEqual({ name: 'a\tb\r\nc é 🚗 \u00a0' });
  });

  it('names the path of every string that holds one, in arrays too, and keeps schema issues of other fields', () => {
    expect(issuesOf({ name: 'x\u0000', tags: ['ok', 'bad\u0000'], age: 'old' })).toEqual(['name', 'tags.1', 'age']);
  });

  it('reports a key holding one even where the schema would strip it', () => {
    expect(controlCharacterIssues({ ['k\u0000']: 1 })).toHaveLength(1);
    expect(issuesOf({ name: 'x', ['k\u0000']: 1 })).toHaveLength(1);
  });
});
