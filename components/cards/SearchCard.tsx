import React, {memo} from 'react';
import {layoutCard} from '../../src/layout/cards/layout-card.js';
import {StyledRows} from '../StyledRows.js';
import type {CardProps} from './card-props.js';

/** A card whose body is a `search` view: the layout's rows, drawn as they are. */
export const SearchCard = memo(function SearchCard({card, options}: CardProps) {
	return <StyledRows lines={layoutCard(card, options)} />;
});
