export * from 'node:fs';
export {default} from 'node:fs';
export function globSync(pattern: string, options?: {readonly cwd?: string}): string[];
