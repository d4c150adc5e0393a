import {layoutMarkdown} from './dist/src/layout/markdown-layout.js';
import {colorTheme} from './dist/src/layout/theme.js';
const text = process.argv[2] === 'p' ? Array.from({length: 30000}, (_, i) => `line ${i} with *some* text`).join('\n\n') : Array.from({length: 100000}, (_, i) => `line ${i} with *some* text`).join('\n');
const t = performance.now();
const lines = layoutMarkdown(text, {width: 80, theme: colorTheme});
console.log(lines.length, (performance.now() - t).toFixed(0), 'ms');
