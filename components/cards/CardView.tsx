import React from 'react';
import {assertNever} from '../../src/presentation/assert-never.js';
import type {ToolCallView, ToolResultView} from '../../src/tools/views.js';
import type {CardProps} from './card-props.js';
import {DiffCard} from './DiffCard.js';
import {GenericCard} from './GenericCard.js';
import {ReadCard} from './ReadCard.js';
import {SearchCard} from './SearchCard.js';
import {TerminalCard} from './TerminalCard.js';
import {WebCard} from './WebCard.js';

/** The view that draws a card's body: the result view, else the raw result (generic), else the pending view. */
function bodyView(card: CardProps['card']): ToolCallView | ToolResultView | undefined {
	if (card.resultView !== null) {
		return card.resultView;
	}

	return card.result === null ? card.callView : undefined;
}

/** Chooses the component for a card by its view's `card` tag; a new kind fails to compile here. */
export function CardView({card, options}: CardProps) {
	const view = bodyView(card);
	if (view === undefined) {
		return <GenericCard card={card} options={options} />;
	}

	switch (view.card) {
		case 'generic': {
			return <GenericCard card={card} options={options} />;
		}

		case 'terminal': {
			return <TerminalCard card={card} options={options} />;
		}

		case 'diff': {
			return <DiffCard card={card} options={options} />;
		}

		case 'search': {
			return <SearchCard card={card} options={options} />;
		}

		case 'web': {
			return <WebCard card={card} options={options} />;
		}

		case 'read': {
			return <ReadCard card={card} options={options} />;
		}

		default: {
			return assertNever(view, 'CardView');
		}
	}
}
