import { createFixturePlayer, requestFacts, type GenFixture, type PlayerFaults } from '../../electron/testSupport/cadgenPlayer/player';
import { startScriptedProvider, type CapturedRequest, type ScriptedProvider, type ScriptStep } from '../../electron/testSupport/scriptedProvider';

type Facts = Record<string, unknown>;

export interface GatedModels {
  provider: ScriptedProvider;
  /**
   * Holds the first request whose facts match `at` (state, head revision...) until `release()`;
   * `reached` resolves when it arrived. `step`, when given, replaces the player's reply to it.
   */
  hold(at: (facts: Facts) => boolean, step?: () => ScriptStep): { reached: Promise<void>; release: () => void };
}

/**
 * The scripted author and reviewer of `fixture` over real HTTP (see cadgenPlayer), with gates that
 * hold the model at chosen points of the protocol so a journey can look at the UI there.
 * `port` restarts a provider that "came back" at its old address.
 */
export async function gatedCadgenModels(fixture: GenFixture, faults: PlayerFaults = {}, port?: number): Promise<GatedModels> {
  const player = createFixturePlayer(fixture, faults);
  const gates: { at: (facts: Facts) => boolean; reached: () => void; released: Promise<void>; step?: () => ScriptStep }[] = [];
  const script = async (request: CapturedRequest): Promise<ScriptStep> => {
    const facts = requestFacts(request);
    const gate = facts ? gates.find((g) => g.at(facts)) : undefined;
    if (gate) {
      gates.splice(gates.indexOf(gate), 1);
      gate.reached();
      await gate.released;
      if (gate.step) return gate.step();
    }
    return player(request);
  };
  const provider = await startScriptedProvider({ script, ...(port ? { port } : {}) });
  return {
    provider,
    hold(at, step) {
      let reached!: () => void;
      let release!: () => void;
      const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      gates.push({ at, reached, released, ...(step ? { step } : {}) });
      return { reached: reachedPromise, release };
    },
  };
}

/**
 * A browser-mode host environment with both generation roles on `provider` (the README's
 * CADSIGHT_AUTHOR_* / CADSIGHT_REVIEWER_* variables; different model names, so each is checked).
 */
export const generationRolesEnv = (provider: ScriptedProvider, locale: 'en' | 'zh-CN'): Record<string, string> => ({
  CADSIGHT_LOCALE: locale,
  CADSIGHT_AUTHOR_PROVIDER: 'custom',
  CADSIGHT_AUTHOR_BASE_URL: provider.apiBaseUrl,
  CADSIGHT_AUTHOR_MODEL: 'scripted-author',
  CADSIGHT_REVIEWER_PROVIDER: 'custom',
  CADSIGHT_REVIEWER_BASE_URL: provider.apiBaseUrl,
  CADSIGHT_REVIEWER_MODEL: 'scripted-reviewer',
});
