// What a V8 heap snapshot holds, by kind: self sizes summed per node type and name (constructor,
// or "(string)" for strings), the largest first, and the longest strings' openings.
//   node bench/lib/heap-summary.mjs FILE.heapsnapshot [--top 25]
// Self sizes, not retained sizes: enough to say which kind of data fills the heap.
import {readFileSync} from 'node:fs';
import {parseArgs} from 'node:util';

const {values, positionals} = parseArgs({allowPositionals: true, options: {top: {type: 'string', default: '25'}}});
const snapshot = JSON.parse(readFileSync(positionals[0], 'utf8'));
const {node_fields: fields, node_types: [types]} = snapshot.snapshot.meta;
const width = fields.length;
const at = Object.fromEntries(fields.map((name, index) => [name, index]));
const {nodes, strings} = snapshot;
const groups = new Map();
const longStrings = [];
let total = 0;
for (let index = 0; index < nodes.length; index += width) {
	const type = types[nodes[index + at.type]];
	const size = nodes[index + at.self_size];
	const name = strings[nodes[index + at.name]];
	total += size;
	const key = type === 'string' || type === 'concatenated string' || type === 'sliced string' ? `(${type})` : `${type} ${name.slice(0, 60)}`;
	const group = groups.get(key) ?? {count: 0, bytes: 0};
	group.count++;
	group.bytes += size;
	groups.set(key, group);
	if (type === 'string' && size > 100_000) {
		longStrings.push({size, opening: name.slice(0, 100)});
	}
}

const mb = bytes => (bytes / 1_048_576).toFixed(1);
process.stdout.write(`heap: ${mb(total)} MB in ${nodes.length / width} nodes\n`);
for (const [key, group] of Array.from(groups).sort((a, b) => b[1].bytes - a[1].bytes).slice(0, Number(values.top))) {
	process.stdout.write(`${mb(group.bytes).padStart(8)} MB ${String(group.count).padStart(9)} × ${key}\n`);
}

for (const {size, opening} of longStrings.sort((a, b) => b.size - a.size).slice(0, 10)) {
	process.stdout.write(`string ${mb(size)} MB: ${JSON.stringify(opening)}\n`);
}
