import {layoutMarkdown} from './dist/src/layout/markdown-layout.js';
import {colorTheme} from './dist/src/layout/theme.js';
const cases = {
  stara: '*a**a'.repeat(20000),
  brackets: '['.repeat(100000),
  under: '_a__'.repeat(25000),
  underBlocks: Array.from({length: 100}, () => '_a__'.repeat(256)).join('\n\n'),
  quotes: '>'.repeat(100000),
  olInline: '1. '.repeat(33000),
  listNest: Array.from({length: 10000}, (_, i) => ' '.repeat(i*2) + '- x').join('\n'),
  lines100k: Array.from({length: 100000}, (_, i) => `line ${i} with *some* text`).join('\n'),
  paras100k: Array.from({length: 100000}, (_, i) => `line ${i} with *some* text`).join('\n\n'),
  big50: ('word '.repeat(19) + 'end\n').repeat(500000),
  big50cjk: ('東京都 '.repeat(19) + 'end\n').repeat(100000),
};
for (const [name, text] of Object.entries(cases)) {
  const t = performance.now();
  const lines = layoutMarkdown(text, {width: 80, theme: colorTheme});
  console.log(name, text.length, lines.length, (performance.now() - t).toFixed(0), 'ms', Math.round(process.memoryUsage().heapUsed / 1e6), 'MB');
}
