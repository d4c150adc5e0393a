/**
@module The 16 ANSI colours of an exported page, for a light and a dark page (the reader's colour
scheme picks one), close to common terminal themes and readable on their background.
*/
type Palette = {readonly background: string; readonly foreground: string; readonly rule: string; readonly red: string; readonly colors: Readonly<Record<string, string>>};

export const ANSI_HTML_PALETTES: {readonly light: Palette; readonly dark: Palette} = {
	light: {
		background: '#ffffff', foreground: '#1f2328', rule: '#d0d7de', red: '#cf222e',
		colors: {
			black: '#1f2328', red: '#cf222e', green: '#116329', yellow: '#7d4e00', blue: '#0550ae', magenta: '#8250df', cyan: '#1b7c83', white: '#6e7781',
			gray: '#57606a', brightRed: '#a40e26', brightGreen: '#1a7f37', brightYellow: '#633c01', brightBlue: '#218bff', brightMagenta: '#a475f9', brightCyan: '#3192aa', brightWhite: '#8c959f',
		},
	},
	dark: {
		background: '#0d1117', foreground: '#e6edf3', rule: '#30363d', red: '#ff7b72',
		colors: {
			black: '#484f58', red: '#ff7b72', green: '#3fb950', yellow: '#d29922', blue: '#58a6ff', magenta: '#bc8cff', cyan: '#39c5cf', white: '#b1bac4',
			gray: '#8b949e', brightRed: '#ffa198', brightGreen: '#56d364', brightYellow: '#e3b341', brightBlue: '#79c0ff', brightMagenta: '#d2a8ff', brightCyan: '#56d4dd', brightWhite: '#f0f6fc',
		},
	},
};
