// Module hooks for the built-app test: `electron` is the stand-in beside this file (there is no Electron here).
const standIn = new URL('./electron-stand-in.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  return specifier === 'electron' ? { url: standIn, shortCircuit: true } : next(specifier, context);
}
