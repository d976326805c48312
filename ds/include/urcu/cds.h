/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/cds.h - every concurrent data structure in one include: lists,
 * RCU lists, the RCU hash table, the RCU trie, the stacks and the queues,
 * including the deprecated <urcu/rculfstack.h> and <urcu/wfqueue.h>
 * (their functions warn only when called).
 *
 * Like each of those headers, this one includes no RCU flavor: include
 * the flavor's header (<urcu.h>, <urcu-qsbr.h>, <urcu-bp.h>) as well.
 */
#ifndef _URCU_CDS_H
#define _URCU_CDS_H

#include <urcu/hlist.h>
#include <urcu/list.h>
#include <urcu/rcuhlist.h>
#include <urcu/rculist.h>
#include <urcu/rculfqueue.h>
#include <urcu/rculfstack.h>
#include <urcu/rculfhash.h>
#include <urcu/rcutrie.h>
#include <urcu/wfqueue.h>
#include <urcu/wfcqueue.h>
#include <urcu/wfstack.h>
#include <urcu/lfstack.h>

#endif /* _URCU_CDS_H */
