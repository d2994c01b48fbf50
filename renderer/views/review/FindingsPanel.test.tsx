import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppStore, type AppStore } from '../../store/appStore';
import type { FindingView, RunDetail } from '../../store/reviewSlice';
import { StoreProvider, useApp } from '../../store/StoreContext';
import { scriptedBridge } from '../../testSupport/scriptedBridge';
import { FindingsPanel } from './FindingsPanel';
import { findingFocusBox, groupByRule } from './findingGroups';

const ok = (value: unknown) => ({ ok: true as const, value });
const counts = { blocking: 0, major: 0, minor: 0, info: 0 };

const finding = (n: number, rule: string, state: FindingView['annotation']['state'] = 'proposed', hypothesis = false): FindingView => ({
  id: n.toString(16).padStart(64, '0'),
  shortId: `f${n}`,
  frameId: 'F1',
  checklistItemId: rule,
  severity: 'minor',
  source: 'rule',
  hypothesis,
  message: `message ${n}`,
  evidenceRefs: [],
  location: { kind: 'point', point: { x: n * 10, y: 50 } },
  annotation: { state, text: `text ${n}`, anchor: { x: n * 10, y: 50 }, textAt: { x: n * 10 + 20, y: 70 }, textHeight: 3.5 },
  payloadHash: 'b'.repeat(64),
  writtenAt: null,
});

// Three rules: TXT-001 has two findings and one already rejected, DIM-001 one, a hypothesis under LLM-001.
const findings = [finding(1, 'TXT-001'), finding(2, 'DIM-001'), finding(3, 'TXT-001'), finding(4, 'TXT-001', 'rejected'), finding(5, 'LLM-001', 'proposed', true)];
const run = (list: FindingView[]): RunDetail => ({
  run: { id: 'run-1', source: 'a.dxf', status: 'completed', llm: false, createdAt: '2026-12-01T00:00:00Z', updatedAt: '2026-12-01T00:00:00Z', findings: list.length, bySeverity: counts, framesDone: 1, framesTotal: 1, error: null },
  frames: [],
  findings: list,
  checklistItems: [
    { id: 'TXT-001', severity: 'minor', mode: 'rule', description: 'Text height follows the standard' },
    { id: 'DIM-001', severity: 'minor', mode: 'rule', description: 'Dimensions are readable' },
  ],
  report: null,
  savedDrawing: null,
});

function Panel() {
  const detail = useApp((s) => s.run)!;
  return <FindingsPanel run={detail} numbers={new Map(detail.findings.map((f, i) => [f.id, i + 1]))} frameId="F1" />;
}

async function mount(store: AppStore) {
  await act(async () => {
    render(
      <StoreProvider store={store}>
        <Panel />
      </StoreProvider>,
    );
  });
}

afterEach(cleanup);

describe('findings grouped by rule', () => {
  it('groups findings by rule in the order they first appear, counting what each bulk action would change', () => {
    const groups = groupByRule(findings, run(findings).checklistItems);
    expect(groups.map((g) => [g.ruleId, g.findings.length, g.approvable.length, g.dismissable.length])).toEqual([
      ['TXT-001', 3, 2, 2],
      ['DIM-001', 1, 1, 1],
      ['LLM-001', 1, 0, 1],
    ]);
    expect(groups[0]!.description).toBe('Text height follows the standard');
  });

  it('zooms to a finding at least half the frame wide, centred on it, and takes further locations into account when a finding has them', () => {
    const frame = { minX: 0, minY: 0, maxX: 600, maxY: 300 };
    const box = findingFocusBox(finding(1, 'TXT-001'), frame);
    expect([(box.minX + box.maxX) / 2, (box.minY + box.maxY) / 2]).toEqual([10, 50]);
    expect(box.maxX - box.minX).toBeCloseTo(300);
    const spread = { ...finding(1, 'TXT-001'), locations: [{ kind: 'point', point: { x: 410, y: 50 } }] } as FindingView;
    const wide = findingFocusBox(spread, frame);
    expect(wide.minX).toBeLessThanOrEqual(10);
    expect(wide.maxX).toBeGreaterThanOrEqual(410);
  });

  it('shows each rule with its count and approves or rejects a whole group, skipping findings that cannot take the decision', async () => {
    const fake = scriptedBridge({
      reviewDecide: (input) => {
        const f = findings.find((x) => x.id === input.findingId)!;
        return ok({ ...f, annotation: { ...f.annotation, state: input.decision.kind === 'approve' ? 'approved' : 'rejected' } });
      },
    });
    const store = createAppStore(fake.bridge, 'en');
    store.setState({ run: run(findings) });
    await mount(store);
    const txt = screen.getByTestId('finding-group-TXT-001');
    expect(within(txt).getByTestId('finding-group-count').textContent).toBe('3 findings');
    expect(within(screen.getByTestId('finding-group-DIM-001')).getByTestId('finding-group-count').textContent).toBe('1 finding');
    expect((within(screen.getByTestId('finding-group-LLM-001')).getByTestId('group-approve') as HTMLButtonElement).disabled).toBe(true);

    await act(async () => {
      fireEvent.click(within(txt).getByTestId('group-approve'));
    });
    const decided = () => fake.calls.filter((c) => c.channel === 'reviewDecide').map((c) => [c.input.findingId, c.input.decision.kind]);
    expect(decided()).toEqual([
      [findings[0]!.id, 'approve'],
      [findings[2]!.id, 'approve'],
    ]);
    expect(screen.getByTestId('finding-1').getAttribute('data-state')).toBe('approved');
    expect(screen.getByTestId('finding-3').getAttribute('data-state')).toBe('approved');

    await act(async () => {
      fireEvent.click(within(screen.getByTestId('finding-group-DIM-001')).getByTestId('group-dismiss'));
    });
    expect(decided().at(-1)).toEqual([findings[1]!.id, 'reject']);
    expect(screen.getByTestId('finding-2').getAttribute('data-state')).toBe('rejected');
  });

  it('is one tab stop: arrows move between rule heads and cards, Enter selects the focused finding, the rule head folds its findings', async () => {
    const store = createAppStore(scriptedBridge({}).bridge, 'en');
    store.setState({ run: run(findings) });
    await mount(store);
    const list = screen.getByTestId('finding-groups');
    const tabStops = () => [...list.querySelectorAll<HTMLElement>('button, [tabindex], textarea')].filter((el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled);
    // The first rule's head is the tab stop: its fold button and its two bulk buttons.
    expect(tabStops().map((el) => el.getAttribute('data-testid'))).toEqual(['finding-group-toggle', 'group-approve', 'group-dismiss']);

    const head = within(screen.getByTestId('finding-group-TXT-001')).getByTestId('finding-group-toggle');
    head.focus();
    await act(async () => {
      fireEvent.keyDown(head, { key: 'ArrowDown' });
    });
    expect(document.activeElement).toBe(screen.getByTestId('finding-1'));
    await act(async () => {
      fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    });
    expect(document.activeElement).toBe(screen.getByTestId('finding-3'));
    expect(store.getState().selectedFindingId).toBeNull();
    await act(async () => {
      fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    });
    expect(store.getState().selectedFindingId).toBe(findings[2]!.id);
    expect(screen.getByTestId('finding-3').getAttribute('aria-current')).toBe('true');
    // Now the selected card is the one tab stop (with its own buttons); other cards are reached by arrows only.
    expect(tabStops().every((el) => el === screen.getByTestId('finding-3') || screen.getByTestId('finding-3').contains(el))).toBe(true);

    await act(async () => {
      fireEvent.keyDown(document.activeElement!, { key: 'End' });
    });
    expect(document.activeElement).toBe(screen.getByTestId('finding-5'));
    await act(async () => {
      fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    });
    expect(document.activeElement).toBe(head);
    await act(async () => {
      fireEvent.click(head);
    });
    expect(head.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByTestId('finding-1')).toBeNull();
  });
});
