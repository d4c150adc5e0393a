/**
The command line. Returns the process exit code.
*/
export async function main(argv: readonly string[]): Promise<number> {
	if (argv.includes('--help') || argv.includes('-h')) {
		process.stdout.write('usage: cardterm [command] [options]\n');
		return 0;
	}

	process.stderr.write('cardterm: not implemented yet\n');
	return 2;
}
