// An empty ES module: the start-up floor of any ESM entry point (bench/startup.js, for information).
