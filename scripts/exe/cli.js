// The CLI bundle of the single executable (scripts/build-exe.js): main(args), as bin/kct.js runs it.
export { main } from '../../dist/cli/main.js';
