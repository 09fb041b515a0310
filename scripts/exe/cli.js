// The CLI bundle of the single executable (scripts/build-exe.js): main(args), as bin/kct.js runs it;
// main.cjs hands it the sandbox bundle for `kct sandbox`.
export { main } from '../../dist/cli/main.js';
