// Preload (`node --import`) for running @modelcontextprotocol/conformance on Node 20.
// The suite's bundle imports `globSync` from "fs" by name (Node >= 22 has it); on Node 20 that
// import fails at link time even though the suite only calls it in `tier-check`, which cardterm
// never runs. When, and only when, this Node lacks fs.globSync, "fs" imported from the suite's
// package resolves to node20-fs.mjs: node:fs plus a globSync over readdirSync + picomatch.
import fs from 'node:fs';
import {register} from 'node:module';

if (typeof fs.globSync !== 'function') {
	register('./node20-glob-hooks.mjs', import.meta.url);
}
