import { OCCT_EXECUTORS } from './operations';

/** Operations the OCCT runtime can execute; the contract registry offers only these. */
export const OCCT_OPERATION_IDS: ReadonlySet<string> = new Set(Object.keys(OCCT_EXECUTORS));
