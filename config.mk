# tl build configuration
VERSION = 0.1
PREFIX = /usr/local
MANPREFIX = $(PREFIX)/share/man

CC = cc
CFLAGS = -std=c11 -O2 -g -Wall -Wextra -Wpedantic -Wshadow
CPPFLAGS = -D_DEFAULT_SOURCE -D_FILE_OFFSET_BITS=64 -DTL_VERSION=\"$(VERSION)\"
LDFLAGS = -Wl,--as-needed
LIBS = -ldeflate -lz -lpthread -lm
