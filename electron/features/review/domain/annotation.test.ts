import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/errors';
import { applyAnnotationEvent, isWritable, payloadHash, type Annotation, type AnnotationEvent } from './annotation';

const initial: Annotation = {
  findingId: 'a'.repeat(64),
  shortId: 'aaaaaaaa',
  state: 'proposed',
  text: 'Zero-length LINE: delete',
  anchor: { x: 10, y: 20 },
  textAt: { x: 15, y: 25 },
  textHeight: 3.5,
  approvedPayloadHash: null,
};

/** Events a user (or a buggy client) may send; approvals sometimes carry the right hash, sometimes a stale one. */
const eventArb: fc.Arbitrary<(current: Annotation) => AnnotationEvent> = fc.oneof(
  fc.constant((current: Annotation) => ({ kind: 'approve' as const, payloadHash: payloadHash(current) })),
  fc.constant(() => ({ kind: 'approve' as const, payloadHash: '0'.repeat(64) })),
  fc.record({ text: fc.option(fc.string({ minLength: 1, maxLength: 20 }), { nil: undefined }), dx: fc.integer({ min: -5, max: 5 }) }).map(
    ({ text, dx }) => (current: Annotation) => ({ kind: 'edit' as const, ...(text === undefined ? {} : { text }), anchor: { x: current.anchor.x + dx, y: current.anchor.y } }),
  ),
  fc.constant(() => ({ kind: 'reject' as const })),
  fc.constant((current: Annotation) => ({ kind: 'written' as const, payloadHash: payloadHash(current) })),
);

describe('annotation state machine', () => {
  it('keeps its invariants under any sequence of events', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 30 }), (events) => {
        let current = initial;
        for (const make of events) {
          const before = current;
          const event = make(current);
          try {
            current = applyAnnotationEvent(current, event);
          } catch (error) {
            expect(error).toBeInstanceOf(AppError);
            expect(current).toBe(before);
            continue;
          }
          // An approval is always bound to the payload as it is now, or absent.
          if (current.approvedPayloadHash !== null) expect(current.approvedPayloadHash).toBe(payloadHash(current));
          if (current.state === 'rejected' || current.state === 'proposed') expect(current.approvedPayloadHash).toBeNull();
          // Only an approved exact payload becomes written, and written is terminal.
          if (current.state === 'written') expect(isWritable(before)).toBe(true);
          if (before.state === 'written') throw new Error('a written annotation accepted an event');
        }
      }),
    );
  });

  it('refuses an approval bound to a payload the user did not see', () => {
    expect(() => applyAnnotationEvent(initial, { kind: 'approve', payloadHash: '0'.repeat(64) })).toThrow(/changed since/);
  });

  it('treats an edit as approval of the edited payload only', () => {
    const edited = applyAnnotationEvent(initial, { kind: 'edit', text: '删除零长度线' });
    expect(edited.state).toBe('edited');
    expect(isWritable(edited)).toBe(true);
    expect(edited.approvedPayloadHash).not.toBe(payloadHash(initial));
  });

  it('refuses to mark a proposed annotation as written', () => {
    expect(() => applyAnnotationEvent(initial, { kind: 'written', payloadHash: payloadHash(initial) })).toThrow(AppError);
  });
});
