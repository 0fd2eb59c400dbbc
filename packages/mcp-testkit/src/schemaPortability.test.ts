import { describe, expect, it } from 'vitest';
import { portabilityProblems, strictSchemaProblems } from './schemaPortability.js';

describe('portabilityProblems', () => {
  it('names fields typed with a type list or a bare anyOf, at any depth', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: ['string', 'null'] },
        columns: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }] },
        rows: {
          type: 'array',
          items: { type: 'object', properties: { id: { anyOf: [{ type: 'integer' }, { type: 'null' }] } } },
        },
        ok: { type: 'boolean' },
      },
    };
    expect(portabilityProblems(schema, 't')).toEqual([
      't.name: type ["string","null"], not one type',
      't.columns: type null with anyOf, not one type',
      't.rows[].id: type null with anyOf, not one type',
    ]);
  });
});

describe('strictSchemaProblems', () => {
  it('accepts a plain object schema and refuses union types and undefined required properties', () => {
    const plain = { type: 'object', properties: { a: { type: 'string', minLength: 1 } }, required: ['a'] };
    expect(strictSchemaProblems(plain, 't')).toEqual([]);
    expect(
      strictSchemaProblems({ type: 'object', properties: { a: { type: ['string', 'number'] } } }, 'u'),
    ).not.toEqual([]);
    expect(strictSchemaProblems({ type: 'object', properties: {}, required: ['b'] }, 'r')).not.toEqual([]);
  });
});
