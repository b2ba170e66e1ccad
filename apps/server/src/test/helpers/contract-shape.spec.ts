import { neverSent, newLedger, recordShape } from './contract-shape';

const components = {
  Bank: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      tags: { type: 'array', items: { type: 'string' } },
      sources: { type: 'array', items: { $ref: '#/components/schemas/Source' } },
      metadata: { type: 'object', additionalProperties: {} },
    },
  },
  Source: { type: 'object', properties: { documentId: { type: 'string' }, grade: { type: 'number' } } },
  OneOrMany: {
    anyOf: [
      { $ref: '#/components/schemas/Source' },
      {
        type: 'object',
        properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Source' } } },
      },
    ],
  },
};

describe('contract shapes', () => {
  it('names a field an answer holds that its schema does not declare, nested ones too', () => {
    const ledger = newLedger();
    recordShape(ledger, components, 'Bank', {
      id: 'b',
      tags: ['x'],
      sources: [{ documentId: 'd', chunkId: 'c' }],
      metadata: { anything: 1 },
      owner: 'someone',
    });
    expect(ledger.undeclared).toEqual(['Bank.sources[].chunkId', 'Bank.owner']);
  });

  it('names a declared field that no answer held', () => {
    const ledger = newLedger();
    recordShape(ledger, components, 'Bank', {
      id: 'b',
      tags: [],
      sources: [{ documentId: 'd' }],
      metadata: {},
    });
    expect(neverSent(ledger)).toEqual(['Bank.sources[].grade']);
    recordShape(ledger, components, 'Bank', { id: 'c', tags: [], sources: [{ grade: 1 }], metadata: {} });
    expect(neverSent(ledger)).toEqual([]);
  });

  it('reads a union by the option that fits', () => {
    const ledger = newLedger();
    recordShape(ledger, components, 'OneOrMany', { items: [{ documentId: 'd', grade: 2 }] });
    expect(ledger.undeclared).toEqual([]);
    recordShape(ledger, components, 'OneOrMany', { documentId: 'd', grade: 2, extra: true });
    expect(ledger.undeclared).toEqual(['OneOrMany.extra']);
  });
});
