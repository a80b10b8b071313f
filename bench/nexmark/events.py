"""A seeded generator of the Nexmark benchmark's events, as JSON lines of its source table.

Modelled on nexmark/nexmark's ``NexmarkGenerator`` (default configuration): per 50 events one
person, three auctions and 46 bids; ids from 1000; event ``n`` at ``base + n / rate``
seconds; hot sellers, bidders and auctions; four hot channels beside 10,000 others, nine in
ten of whose URLs carry a ``channel_id``; extra strings padding each event to its average
size. Each line is a row of the standard DDL's ``datagen`` table: ``event_type`` and one of
``person``, ``auction``, ``bid`` (the others null), timestamps as Flink's JSON format writes
them (``2026-01-01 00:00:00.000``).

    python -m bench.nexmark.events 2000 /tmp/events.json --rate 100

The same arguments give the same file on every Python 3 (``random.Random`` of a seed).
"""
from __future__ import annotations

import argparse
import datetime
import json
import random
from pathlib import Path

PERSON_PROPORTION, AUCTION_PROPORTION, BID_PROPORTION = 1, 3, 46
TOTAL_PROPORTION = PERSON_PROPORTION + AUCTION_PROPORTION + BID_PROPORTION
FIRST_PERSON_ID = FIRST_AUCTION_ID = 1000
FIRST_CATEGORY_ID, NUM_CATEGORIES = 10, 5
NUM_ACTIVE_PEOPLE, NUM_IN_FLIGHT_AUCTIONS = 1000, 100
PERSON_ID_LEAD = AUCTION_ID_LEAD = 10
HOT_SELLERS_RATIO = HOT_BIDDERS_RATIO = 4
HOT_AUCTION_RATIO = 2
HOT_GROUP = 100  # hot sellers, bidders and auctions: the first of each hundred
AVERAGE_SIZE = {"person": 200, "auction": 500, "bid": 100}
US_STATES = "AZ,CA,ID,OR,WA,WY".split(",")
US_CITIES = ("Phoenix,Los Angeles,San Francisco,Boise,Portland,Bend,Redmond,Seattle,Kent,"
             "Cheyenne").split(",")
FIRST_NAMES = "Peter,Paul,Luke,John,Saul,Vicky,Kate,Julie,Sarah,Deiter,Walter".split(",")
LAST_NAMES = "Shultz,Abrams,Spencer,White,Bartels,Walton,Smith,Jones,Noris".split(",")
HOT_CHANNELS = ["Google", "Facebook", "Baidu", "Apple"]
CHANNELS = 10000
BASE_TIME = datetime.datetime(2026, 1, 1)


def last_person_id(event_id: int) -> int:
    """The last person generated at or before ``event_id`` (ids from 0)."""
    epoch, offset = divmod(event_id, TOTAL_PROPORTION)
    return epoch * PERSON_PROPORTION + min(offset, PERSON_PROPORTION - 1)


def last_auction_id(event_id: int) -> int:
    """The last auction generated at or before ``event_id`` (ids from 0)."""
    epoch, offset = divmod(event_id, TOTAL_PROPORTION)
    if offset < PERSON_PROPORTION:
        epoch, offset = epoch - 1, AUCTION_PROPORTION - 1
    elif offset >= PERSON_PROPORTION + AUCTION_PROPORTION:
        offset = AUCTION_PROPORTION - 1
    else:
        offset -= PERSON_PROPORTION
    return epoch * AUCTION_PROPORTION + offset


class NexmarkEvents:
    """The events ``0 .. count-1`` of one seed, ``rate`` events per second of event time."""

    def __init__(self, seed: int = 0, rate: int = 10000) -> None:
        self.random = random.Random(seed)
        self.rate = rate
        self.padding = "".join(self.random.choice("abcdefghijklmnopqrstuvwxyz")
                               for _ in range(1 << 16))
        urls = random.Random(seed + 1)
        self.hot_urls = [self.base_url(urls) for _ in HOT_CHANNELS]
        self.channel_urls = []
        for i in range(CHANNELS):
            url = self.base_url(urls)
            if urls.randrange(10) > 0:
                url += "&channel_id=%d" % abs(int.from_bytes(
                    i.to_bytes(4, "big")[::-1], "big", signed=True))
            self.channel_urls.append(url)

    def word(self, max_length: int, special: str = " ", rng=None) -> str:
        rng = rng or self.random
        length = 3 + rng.randrange(max_length - 3)
        return "".join(special if rng.randrange(13) == 0 else chr(97 + rng.randrange(26))
                       for _ in range(length)).strip()

    def base_url(self, rng) -> str:
        return "https://www.nexmark.com/%s/%s/%s/item.htm?query=1" % tuple(
            self.word(5, "_", rng) for _ in range(3))

    def extra(self, current_size: int, kind: str) -> str:
        desired = AVERAGE_SIZE[kind] - current_size
        if desired <= 0:
            return ""
        delta = round(desired * 0.2)
        size = desired - delta + (self.random.randrange(2 * delta) if delta else 0)
        start = self.random.randrange(len(self.padding) - size)
        return self.padding[start:start + size]

    def timestamp(self, event_id: int) -> str:
        moment = BASE_TIME + datetime.timedelta(microseconds=event_id * 1000000 // self.rate)
        return moment.strftime("%Y-%m-%d %H:%M:%S.") + "%03d" % (moment.microsecond // 1000)

    def price(self) -> int:
        return round(10.0 ** (self.random.random() * 6.0) * 100.0)

    def some_person(self, event_id: int) -> int:
        people = last_person_id(event_id) + 1
        active = min(people, NUM_ACTIVE_PEOPLE)
        return people - active + self.random.randrange(active + PERSON_ID_LEAD)

    def person(self, event_id: int) -> dict:
        rnd = self.random
        name = "%s %s" % (rnd.choice(FIRST_NAMES), rnd.choice(LAST_NAMES))
        email = "%s@%s.com" % (self.word(7), self.word(5))
        card = " ".join("%04d" % rnd.randrange(10000) for _ in range(4))
        city, state = rnd.choice(US_CITIES), rnd.choice(US_STATES)
        size = 8 + len(name) + len(email) + len(card) + len(city) + len(state)
        return {"id": last_person_id(event_id) + FIRST_PERSON_ID, "name": name,
                "emailAddress": email, "creditCard": card, "city": city, "state": state,
                "dateTime": self.timestamp(event_id), "extra": self.extra(size, "person")}

    def auction(self, event_id: int) -> dict:
        rnd = self.random
        if rnd.randrange(HOT_SELLERS_RATIO) > 0:
            seller = last_person_id(event_id) // HOT_GROUP * HOT_GROUP
        else:
            seller = self.some_person(event_id)
        category = FIRST_CATEGORY_ID + rnd.randrange(NUM_CATEGORIES)
        initial_bid = self.price()
        horizon_events = NUM_IN_FLIGHT_AUCTIONS * TOTAL_PROPORTION // AUCTION_PROPORTION
        horizon_ms = horizon_events * 1000 // self.rate
        expires_ms = 1 + rnd.randrange(max(horizon_ms * 2, 1))
        name, description = self.word(20), self.word(100)
        expires = (BASE_TIME + datetime.timedelta(microseconds=event_id * 1000000 // self.rate)
                   + datetime.timedelta(milliseconds=expires_ms))
        return {"id": last_auction_id(event_id) + FIRST_AUCTION_ID, "itemName": name,
                "description": description, "initialBid": initial_bid,
                "reserve": initial_bid + self.price(), "dateTime": self.timestamp(event_id),
                "expires": expires.strftime("%Y-%m-%d %H:%M:%S.")
                + "%03d" % (expires.microsecond // 1000),
                "seller": seller + FIRST_PERSON_ID, "category": category,
                "extra": self.extra(8 + len(name) + len(description) + 40, "auction")}

    def bid(self, event_id: int) -> dict:
        rnd = self.random
        if rnd.randrange(HOT_AUCTION_RATIO) > 0:
            auction = last_auction_id(event_id) // HOT_GROUP * HOT_GROUP
        else:
            low = max(last_auction_id(event_id) - NUM_IN_FLIGHT_AUCTIONS, 0)
            auction = low + rnd.randrange(last_auction_id(event_id) - low + 1 + AUCTION_ID_LEAD)
        if rnd.randrange(HOT_BIDDERS_RATIO) > 0:
            bidder = last_person_id(event_id) // HOT_GROUP * HOT_GROUP + 1
        else:
            bidder = self.some_person(event_id)
        price = self.price()
        if rnd.randrange(2) > 0:
            i = rnd.randrange(len(HOT_CHANNELS))
            channel, url = HOT_CHANNELS[i], self.hot_urls[i]
        else:
            i = rnd.randrange(CHANNELS)
            channel, url = "channel-%d" % i, self.channel_urls[i]
        return {"auction": auction + FIRST_AUCTION_ID, "bidder": bidder + FIRST_PERSON_ID,
                "price": price, "channel": channel, "url": url,
                "dateTime": self.timestamp(event_id), "extra": self.extra(32, "bid")}

    def event(self, event_id: int) -> dict:
        offset = event_id % TOTAL_PROPORTION
        if offset < PERSON_PROPORTION:
            return {"event_type": 0, "person": self.person(event_id), "auction": None,
                    "bid": None}
        if offset < PERSON_PROPORTION + AUCTION_PROPORTION:
            return {"event_type": 1, "person": None, "auction": self.auction(event_id),
                    "bid": None}
        return {"event_type": 2, "person": None, "auction": None, "bid": self.bid(event_id)}


def write_events(path: Path, count: int, rate: int = 10000, seed: int = 0) -> Path:
    """Writes ``count`` events as JSON lines to ``path`` (a file) and returns it."""
    events = NexmarkEvents(seed, rate)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as out:
        for event_id in range(count):
            out.write(json.dumps(events.event(event_id), separators=(",", ":")))
            out.write("\n")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int)
    parser.add_argument("path")
    parser.add_argument("--rate", type=int, default=10000, help="events per second")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    write_events(Path(args.path), args.count, args.rate, args.seed)


if __name__ == "__main__":
    main()
