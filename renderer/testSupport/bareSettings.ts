/** The settings of a fresh install (no providers, no roles, env key storage) in `locale`, as the host reports them. */
export function bareSettings<L extends 'en' | 'zh-CN'>(locale: L) {
  return {
    locale,
    providers: [],
    roles: { vision: null, author: null, reviewer: null },
    cad: { host: '127.0.0.1', port: 8080, allowRemote: false },
    allowedRoots: [],
    secretStorage: { available: false, backend: 'env' },
    envOverrides: [],
  };
}
