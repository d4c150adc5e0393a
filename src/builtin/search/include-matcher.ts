/**
@module ripgrep-style `--glob` matching for grep's `include` and for glob's `pattern`. A glob with no
`/` matches an entry's base name at any depth; one with a `/` (a leading `/` only anchors) matches
the entry's path relative to a base directory. `*` also matches dot names, as in `.gitignore`.
*/
import path from 'node:path';
import picomatch from 'picomatch';

/** Test a path relative to a base (with `/` separators) or, for slash-less globs, a base name. */
export type GlobTest = (relativePath: string) => boolean;

/** Compile one glob. Throws when picomatch cannot parse it. */
export function compileGlob(glob: string): GlobTest {
	const anchored = glob.startsWith('/') ? glob.slice(1) : glob;
	const hasSlash = anchored.includes('/');
	const match = picomatch(anchored, {dot: true});
	return hasSlash ? (relativePath) => match(relativePath) : (relativePath) => match(relativePath.slice(relativePath.lastIndexOf('/') + 1));
}

/** `relative` with `/` separators, or `undefined` when `target` is not below `base`. */
export function relativeBelow(base: string, target: string): string | undefined {
	const relative = path.relative(base, target);
	if (relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
		return undefined;
	}

	return relative.split(path.sep).join('/');
}
