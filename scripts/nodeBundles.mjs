// Which npm packages a Node entry bundles instead of loading from node_modules (shared by
// scripts/build-node.mjs and the start-up footprint test, so the test sees the shipped bundle).

/**
 * Packages bundled into an entry, per output name. The MCP SDK, zod and ajv are ~300 small
 * modules whose resolution and loading dominated cadsight-vision's cold start; inside its bundle
 * they load as one file (start to tools/list ≈ 0.8 × a bare SDK server instead of 1.2 ×, see
 * bench:vision). Every other package stays external (native modules, WASM, and what is only
 * loaded on first use).
 */
export const bundledPackages = { visionMcp: ['@modelcontextprotocol/sdk', 'zod', 'ajv'] };

/**
 * esbuild options of entry `name` given package.json: {} (every package external) unless it
 * bundles packages; then all other dependencies are external and the bundled packages' own
 * dependencies (ajv-formats, …), which package.json does not list, are bundled with them.
 */
export function bundleOptionsFor(name, { dependencies = {}, devDependencies = {} }) {
  const bundled = bundledPackages[name];
  if (!bundled) return {};
  const external = Object.keys({ ...dependencies, ...devDependencies }).filter((pkg) => !bundled.includes(pkg));
  return { packages: undefined, external: [...external, ...external.map((pkg) => `${pkg}/*`)] };
}
