import React, {memo, useContext} from 'react';
import {Text} from 'ink';
import {isAnsiColor, styleAtDepth} from '../src/layout/terminal/color-depth.js';
import type {AnsiColor, Color, Span, StyledLine} from '../src/layout/text/styled-line.js';
import {ColorDepthContext} from './color-depth-context.js';

type Props = {
	/** Rows from a layout; each already fits the width, so Ink never wraps them. */
	readonly lines: readonly StyledLine[];
};

const inkColors: Record<AnsiColor, string> = {
	black: 'black',
	red: 'red',
	green: 'green',
	yellow: 'yellow',
	blue: 'blue',
	magenta: 'magenta',
	cyan: 'cyan',
	white: 'white',
	gray: 'gray',
	brightRed: 'redBright',
	brightGreen: 'greenBright',
	brightYellow: 'yellowBright',
	brightBlue: 'blueBright',
	brightMagenta: 'magentaBright',
	brightCyan: 'cyanBright',
	brightWhite: 'whiteBright',
};

/** A colour as Ink (chalk) names it: one of the 16 by name, `ansi256(n)`, or `#rrggbb`. */
function inkColor(color: Color | undefined): string | undefined {
	if (color === undefined) {
		return undefined;
	}

	if (isAnsiColor(color)) {
		return inkColors[color];
	}

	return typeof color === 'number' ? `ansi256(${color})` : color;
}

function SpanText({span}: {readonly span: Span}) {
	// Mapped to the terminal's depth here, as render-lines.ts does for the scrollback and print mode.
	const style = styleAtDepth(span.style ?? {}, useContext(ColorDepthContext));
	return (
		<Text
			color={inkColor(style.fg)}
			backgroundColor={inkColor(style.bg)}
			bold={style.bold}
			dimColor={style.dim}
			italic={style.italic}
			underline={style.underline}
			inverse={style.inverse}
			strikethrough={style.strikethrough}
		>
			{span.text}
		</Text>
	);
}

/** Draws layout rows with Ink `<Text>`: one row per line, truncated (never wrapped) by Ink. */
export const StyledRows = memo(function StyledRows({lines}: Props) {
	return (
		<>
			{lines.map((line, row) => (
				// Rows have no identity beyond their position in one layout.
				// eslint-disable-next-line react/no-array-index-key
				<Text key={row} wrap="truncate-end">
					{line.spans.length === 0 ? ' ' : line.spans.map((span, index) => <SpanText key={index} span={span} />)}
				</Text>
			))}
		</>
	);
});
