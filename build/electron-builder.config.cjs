/**
 * electron-builder configuration: `npm run dist`.
 * Windows: NSIS installer + portable exe. Linux: AppImage.
 * Native modules (better-sqlite3, sharp, resvg) are rebuilt for Electron's ABI and, like the
 * OpenCascade WASM, unpacked from the asar archive so they can be loaded/mapped from disk;
 * nothing else is unpacked (see asarUnpack).
 * Fuses: no ELECTRON_RUN_AS_NODE, no NODE_OPTIONS, no --inspect, asar integrity checked,
 * app loaded only from the asar. Test corpus drawings are never packaged.
 */
module.exports = {
  appId: 'com.cadsight.workstation',
  productName: 'CadSight',
  copyright: 'Copyright © CadSight',
  directories: { output: 'release', buildResources: 'build' },
  files: [
    'package.json',
    'dist/electron/**',
    'dist/renderer/**',
    'dist/node/**',
    'bin/**',
    '!**/*.map',
    '!**/*.test.*',
  ],
  extraResources: [{ from: 'resources', to: 'resources', filter: ['**/*'] }],
  asar: true,
  // Only what the OS must map from a real file leaves the asar: native addons (better-sqlite3,
  // sharp, resvg, canvas), the shared libraries sharp's addon links against (@img/*: libvips .so/.dll)
  // and the OpenCascade WASM. Everything else, the Node bundles in dist/node and the OpenCascade
  // worker script included (Electron reads asar in worker threads), stays inside the archive
  // where the asar-integrity fuse checks it.
  asarUnpack: ['**/*.node', '**/*.wasm', 'node_modules/@img/**'],
  npmRebuild: true,
  buildDependenciesFromSource: false,
  electronFuses: {
    runAsNode: false,
    enableCookieEncryption: true,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    loadBrowserProcessSpecificV8Snapshot: false,
    grantFileProtocolExtraPrivileges: false,
  },
  win: {
    target: [
      { target: 'nsis', arch: ['x64'] },
      { target: 'portable', arch: ['x64'] },
    ],
  },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
    artifactName: 'CadSight-Setup-${version}.${ext}',
  },
  portable: { artifactName: 'CadSight-Portable-${version}.${ext}' },
  linux: {
    target: [{ target: 'AppImage', arch: ['x64'] }],
    category: 'Graphics',
    artifactName: 'CadSight-${version}.${ext}',
  },
};
