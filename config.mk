# tl build configuration
VERSION = 0.1
PREFIX = /usr/local
MANPREFIX = $(PREFIX)/share/man

CC = cc
CFLAGS = -std=c11 -O2 -g -Wall -Wextra -Wpedantic -Wshadow
CPPFLAGS = -D_DEFAULT_SOURCE -D_FILE_OFFSET_BITS=64 -DTL_VERSION=\"$(VERSION)\"
LDFLAGS = -Wl,--as-needed
LIBS = -ldeflate -lz -lpthread -lm
# ISA-L's inflate for large gzip files (libisal-dev), when it is there;
# without it zlib's does the same, slower. Looked for when a recipe runs,
# so after scripts/deps has installed it.
ISAL = $(shell test -f /usr/include/isa-l/igzip_lib.h && echo yes || echo no)
CPPFLAGS_ISAL_yes = -DTL_ISAL
LIBS_ISAL_yes = -lisal
CPPFLAGS += $(CPPFLAGS_ISAL_$(ISAL))
LIBS += $(LIBS_ISAL_$(ISAL))
