// An empty CommonJS module: the floor of a CommonJS entry point (bin/kct.js is one).
