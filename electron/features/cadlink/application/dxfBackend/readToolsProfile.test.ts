import { describe, expect, it } from 'vitest';
import { BACKEND_PROFILES } from '../../domain/policy/capabilities';
import { isWriteLikeToolName } from '../../domain/policy/toolPolicy';
import { DXF_READ_TOOLS } from './dxfToolProvider';

describe('the embedded DXF backend and its policy profile', () => {
  it('agree on which tools only read the drawing', () => {
    expect([...BACKEND_PROFILES['cadsight-dxf'].readTools].sort()).toEqual([...DXF_READ_TOOLS].sort());
  });

  it('never list a write-like tool as read-only', () => {
    expect(DXF_READ_TOOLS.filter(isWriteLikeToolName)).toEqual([]);
  });
});
