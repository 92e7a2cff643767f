"""The room state machine: seats, hands within a match, deadlines. Sans-I/O: time comes in as
a number, effects go out as data; the server carries them out."""
