import React, {memo} from 'react';
import {Text} from 'ink';
import type {AnsiColor, Span, StyledLine} from '../src/layout/styled-line.js';

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

function SpanText({span}: {readonly span: Span}) {
	const style = span.style ?? {};
	return (
		<Text
			color={style.fg === undefined ? undefined : inkColors[style.fg]}
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
